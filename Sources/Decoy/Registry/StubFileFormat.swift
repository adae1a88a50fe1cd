/// What the stub-file decoders (module DecoyStubFiles) and ``StubEncoder`` must agree on. It
/// lives in the engine, beside the encoder, which the admin API's listing of stubs registered in
/// code needs, so that neither needs Yams.
package enum StubFileFormat {
    /// The faults by their stub-file names, WireMock's where WireMock has the fault.
    package static let faults: [String: Fault] = [
        "EMPTY_RESPONSE": .emptyResponse, "CONNECTION_RESET_BY_PEER": .connectionReset,
        "MALFORMED_RESPONSE_CHUNK": .malformedResponse, "RANDOM_DATA_THEN_CLOSE": .randomDataThenClose,
        // Decoy's own: WireMock has no fault that never answers.
        "TIMEOUT": .timeout,
    ]
    /// Mixed into the seed of a random mode to seed its failures: the same file, the same stream.
    package static let failureSeedMix: UInt64 = 0x9E37_79B9_7F4A_7C15
}
