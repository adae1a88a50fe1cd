// In no target: PublicAPITests compiles it outside the package, expecting it to fail with a hint.
import DecoyTesting

/// A test target that links DecoyTesting alone asks for every mode.
let modes = ServingMode.allCases
