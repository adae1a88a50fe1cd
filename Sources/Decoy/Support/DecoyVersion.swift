/// Decoy's version, the one place it is written: `decoy --version` prints it, and a HAR file
/// names it as its creator's.
package let decoyVersion = "0.9.0"
