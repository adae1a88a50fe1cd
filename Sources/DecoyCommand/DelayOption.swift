import ArgumentParser
import Decoy

/// Reads `--delay`: milliseconds as `250` (fixed), `100-300` (uniform) or `lognormal:80:0.4`
/// (median and sigma), the delay distributions of stub files.
enum DelayOption {
    static let help = ArgumentHelp(
        """
        The delay of every stub without one of its own, in milliseconds: 250, 100-300 (uniform) or \
        lognormal:80:0.4 (median, sigma).
        """,
        valueName: "delay"
    )

    static func parse(_ text: String) throws -> Delay {
        let delay = try distribution(text)
        if let problem = delay.problem { throw ValidationError("--delay \(text): \(problem)") }
        return delay
    }

    private static func distribution(_ text: String) throws -> Delay {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0] == "lognormal", let median = Int(parts[1]), median >= 0,
            let sigma = Double(parts[2])
        {
            return .lognormal(median: .milliseconds(median), sigma: sigma)
        }
        let bounds = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        if bounds.count == 1, let fixed = bounds[0], fixed >= 0 { return .fixed(.milliseconds(fixed)) }
        if bounds.count == 2, let lower = bounds[0], let upper = bounds[1], 0 <= lower, lower <= upper {
            return .uniform(.milliseconds(lower)...(.milliseconds(upper)))
        }
        throw ValidationError("--delay takes milliseconds: 250, 100-300 or lognormal:80:0.4; got \"\(text)\"")
    }
}
