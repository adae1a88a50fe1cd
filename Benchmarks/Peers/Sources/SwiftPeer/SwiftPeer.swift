import FlyingFox
import Foundation
import Hummingbird

/// A Swift server answering `GET /stub` with the benchmark's 99-byte JSON: `SwiftPeer hummingbird|flyingfox PORT`.
///
/// Each runs as its documentation shows, on 127.0.0.1, with no per-request log line (Hummingbird
/// has none without middleware; FlyingFox's is turned off), as Decoy's is in the `--log none` row.
/// Stops on SIGTERM or SIGINT.
@main
struct SwiftPeer {
    static let body =
        #"{"id":42,"name":"benchmark-stub","status":"ok","tags":["alpha","beta"],"message":"hello from stub"}"#

    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let port = UInt16(arguments.last!) else {
            print("usage: SwiftPeer hummingbird|flyingfox PORT")
            exit(2)
        }
        switch arguments.first {
        case "hummingbird": try await hummingbird(port: Int(port))
        case "flyingfox": try await flyingFox(port: port)
        default:
            print("unknown server \(arguments.first!): hummingbird or flyingfox")
            exit(2)
        }
    }

    static func hummingbird(port: Int) async throws {
        let body = ByteBuffer(string: Self.body)
        let router = Router()
        router.get("stub") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }

    static func flyingFox(port: UInt16) async throws {
        let body = Data(Self.body.utf8)
        let server = FlyingFox.HTTPServer(
            config: .init(address: try .inet(ip4: "127.0.0.1", port: port), logger: .disabled))
        await server.appendRoute("GET /stub") { _ in
            FlyingFox.HTTPResponse(statusCode: .ok, headers: [.contentType: "application/json"], body: body)
        }
        try await server.run()
    }
}
