import Decoy
import Testing

@Suite struct UTF8TextTests {
    @Test(arguments: [0, 7, 10, 42, 200, 1_234_567, -15, Int.max, Int.min])
    func decimalIsWrittenAsStringWritesIt(_ value: Int) {
        var bytes = Array("n=".utf8)
        bytes.append(decimal: value)
        #expect(String(decoding: bytes, as: UTF8.self) == "n=\(value)")
    }
}
