import Decoy
import DecoyStubFiles
import Foundation
import HTTPTypes

/// WireMock's recording endpoints: `recordings/start`, `stop`, `status` and `snapshot`, over the
/// server's ``Recorder``.
extension AdminAPI {
    func startRecording(_ call: AdminCall) -> StubResponse {
        withRecorder(call) { recorder in
            Self.withSpec(call.body, fields: Self.startFields) { spec throws(DecoyError) in
                guard case .string(let text)? = spec["targetBaseUrl"] else {
                    throw Self.invalid("targetBaseUrl", "targetBaseUrl is required")
                }
                guard let target = URL(string: text), ["http", "https"].contains(target.scheme?.lowercased()),
                    target.host?.isEmpty == false
                else {
                    throw Self.invalid("targetBaseUrl", "targetBaseUrl must be an http or https URL with a host")
                }
                let options = try Self.options(spec)
                do {
                    try recorder.start(target: target, options: options)
                } catch {
                    throw Self.invalid("targetBaseUrl", "\(error)")
                }
                return AdminReply.ok
            }
        }
    }

    func stopRecording(_ call: AdminCall) -> StubResponse {
        withRecorder(call) { recorder in
            Self.recorded(outputFormat: nil) { () throws(Recorder.Failure) in try recorder.stop() }
        }
    }

    func recordingStatus(_ call: AdminCall) -> StubResponse {
        withRecorder(call) { AdminReply.encoded(["status": $0.status.rawValue]) }
    }

    func snapshotRecording(_ call: AdminCall) -> StubResponse {
        withRecorder(call) { recorder in
            Self.withSpec(call.body, fields: Self.snapshotFields) { spec throws(DecoyError) in
                let options = try Self.options(spec)
                return Self.recorded(outputFormat: spec["outputFormat"]) { () throws(Recorder.Failure) in
                    try recorder.snapshot(options: options)
                }
            }
        }
    }

    /// The fields of WireMock's record spec Decoy takes; the others (captured header fields,
    /// transformers) are refused by name, and so are values of these Decoy does not follow.
    private static let snapshotFields: Set = [
        "persist", "repeatsAsScenarios", "outputFormat", "filters", "extractBodyCriteria", "requestBodyPatternFactory",
    ]
    private static let startFields = snapshotFields.union(["targetBaseUrl"])

    /// Runs `body` with the spec in `json` (none is an empty one), refusing fields it does not take.
    private static func withSpec(
        _ json: Data, fields: Set<String>, _ body: ([String: JSONValue]) throws(DecoyError) -> StubResponse
    ) -> StubResponse {
        do throws(DecoyError) {
            let spec: [String: JSONValue]
            if json.isEmpty {
                spec = [:]
            } else if case .object(let members)? = JSONValue(parsing: json) {
                // A field sent as null is a field not sent, as WireMock's clients write defaults.
                spec = members.filter { $0.value != .null }
            } else {
                throw invalid("", "the body must be a JSON object")
            }
            for name in spec.keys.sorted() where !fields.contains(name) {
                throw invalid(
                    name,
                    """
                    Decoy does not take \(name) in a recording; it takes \
                    \(fields.sorted().joined(separator: ", ")). See docs/recording.md.
                    """
                )
            }
            return try body(spec)
        } catch {
            return AdminReply.invalid(error)
        }
    }

    private static func options(_ spec: [String: JSONValue]) throws(DecoyError) -> Recorder.Options {
        var options = Recorder.Options()
        if let persist = spec["persist"] { options.persist = try flag(persist, "persist") }
        if let repeats = spec["repeatsAsScenarios"] {
            options.recording.repeatsAsScenarios = try flag(repeats, "repeatsAsScenarios")
        }
        if let format = spec["outputFormat"], format != .string("FULL"), format != .string("IDS") {
            throw invalid("outputFormat", "outputFormat must be FULL or IDS")
        }
        // WireMock's clients send this default; Decoy records proxied requests only.
        if let filters = spec["filters"], filters != .object(["allowNonProxied": .bool(false)]) {
            throw invalid(
                "filters",
                """
                Decoy does not filter recordings: it records every proxied request (filters may only be \
                {\"allowNonProxied\": false})
                """
            )
        }
        if let criteria = spec["extractBodyCriteria"] {
            let members = try object(
                criteria, "extractBodyCriteria", fields: ["textSizeThreshold", "binarySizeThreshold"])
            options.recording.bodyFiles = StubRecording.BodyFiles(
                textAbove: try size(members["textSizeThreshold"], "extractBodyCriteria.textSizeThreshold"),
                binaryAbove: try size(members["binarySizeThreshold"], "extractBodyCriteria.binarySizeThreshold")
            )
        }
        if let factory = spec["requestBodyPatternFactory"] {
            let members = try object(
                factory, "requestBodyPatternFactory",
                fields: ["matcher", "ignoreArrayOrder", "ignoreExtraElements", "caseInsensitive"])
            if let matcher = members["matcher"], matcher != .string("auto") {
                throw invalid(
                    "requestBodyPatternFactory.matcher",
                    "Decoy chooses the body matcher itself, as WireMock's \"auto\" does; matcher may only be auto")
            }
            var matching = StubRecording.BodyMatching()
            if let value = members["ignoreArrayOrder"] {
                matching.ignoreArrayOrder = try flag(value, "requestBodyPatternFactory.ignoreArrayOrder")
            }
            if let value = members["ignoreExtraElements"] {
                matching.ignoreExtraElements = try flag(value, "requestBodyPatternFactory.ignoreExtraElements")
            }
            if let value = members["caseInsensitive"] {
                matching.caseInsensitive = try flag(value, "requestBodyPatternFactory.caseInsensitive")
            }
            options.recording.bodyMatching = matching
        }
        return options
    }

    private static func flag(_ value: JSONValue, _ field: String) throws(DecoyError) -> Bool {
        guard case .bool(let flag) = value else { throw invalid(field, "\(field) must be true or false") }
        return flag
    }

    /// An object whose members are all among `fields`.
    private static func object(_ value: JSONValue, _ field: String, fields: Set<String>) throws(DecoyError)
        -> [String: JSONValue]
    {
        guard case .object(let members) = value else { throw invalid(field, "\(field) must be an object") }
        for name in members.keys.sorted() where !fields.contains(name) {
            throw invalid(
                "\(field).\(name)",
                "Decoy does not take \(field).\(name); it takes \(fields.sorted().joined(separator: ", "))")
        }
        return members
    }

    /// A size in bytes, a whole number or its text, as WireMock's clients write it; 0 when absent.
    private static func size(_ value: JSONValue?, _ field: String) throws(DecoyError) -> Int {
        switch value {
        case nil: return 0
        case .number(let number) where number >= 0 && number.rounded() == number: return Int(number)
        case .string(let text) where Int(text).map { $0 >= 0 } == true: return Int(text) ?? 0
        default: throw invalid(field, "\(field) must be a whole number of bytes")
        }
    }

    /// `{"mappings": [...]}`, or `{"ids": [...]}` for the output format `IDS`; WireMock's error
    /// code 30 when nothing is recording.
    private static func recorded(
        outputFormat: JSONValue?, _ make: () throws(Recorder.Failure) -> [StubRecording.Mapping]
    ) -> StubResponse {
        do throws(Recorder.Failure) {
            let mappings = try make()
            let answer: [String: JSONValue] =
                outputFormat == .string("IDS")
                ? ["ids": .array(mappings.map { .string($0.id) })]
                : ["mappings": .array(mappings.map { .object($0.document) })]
            return AdminReply.json(String(decoding: StubRecording.text(of: answer), as: UTF8.self))
        } catch {
            switch error {
            case .notRecording: return AdminReply.error(.badRequest, "Not currently recording.", code: 30)
            case .unwritable(let error): return AdminReply.invalid(error)
            }
        }
    }

    private static func invalid(_ field: String, _ message: String) -> DecoyError {
        DecoyError.invalidStubFiles([StubFileDiagnostic(file: "request body", field: field, message: message)])
    }
}
