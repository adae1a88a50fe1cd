// swift-format-ignore-file
// The examples of docs/client.md's feature sections, verbatim; DocumentationSyncTests keeps them so.
import Clocks
import Decoy
import DecoyClient
import Foundation
import HTTPTypes
import Testing

struct Product: Codable, Sendable, Equatable { let sku: String; let price: Int }
struct Catalog: Decodable, Sendable { let title: String; @LossyArray var products: [Product] }
struct Maintenance: Decodable, Sendable { let message: String }
struct SalesReport: Decodable, Sendable { let totalCents: Int }

struct ProductRecord: Decodable, Sendable { let sku: String; let price_cents: Int }

/// Products a user looked at, most recent last.
final class ViewHistory: Sendable {
    let products = Mutex<[Product]>([])
    func add(_ product: Product) { products.withLock { $0.append(product) } }
}

struct ProductDetails: Request {
    let sku: String
    let history: ViewHistory
    var resource: Resource<ProductRecord> { .get("/products/\(sku)").unwrapped() }
    func finalize(raw: ProductRecord) throws -> Product { Product(sku: raw.sku, price: raw.price_cents) }
    func postProcess(result: Product) async -> Product {
        history.add(result)
        return result
    }
}

func signature(for text: String) -> String { "sig-\(text.utf8.count)" }

struct StoreSearch: Request {
    @Query(name: "q") var text = ""
    @Query(name: "brand") var brands: [String] = []
    @Header(.acceptLanguage) var language: String? = nil
    var inStockOnly = false

    var resource: Resource<[Product]> {
        Resource.get("https://search.example.com/v1/search").query {
            if inStockOnly { URLQueryItem(name: "stock", value: "1") }
        }
    }

    func prepare(request: HTTPRequest) -> HTTPRequest {
        var signed = request
        signed.headerFields[.init("X-Signature")!] = signature(for: request.path ?? "")
        return signed
    }
}

extension Request where Self == StoreSearch {
    static func search(_ text: String, brands: [String] = []) -> StoreSearch {
        var search = StoreSearch()
        search.text = text
        search.brands = brands
        return search
    }
}

struct HeroName: Request {
    struct Output: Decodable, Sendable { let hero: Hero }
    struct Hero: Decodable, Sendable { let name: String }
    let episode: String
    let documents: URL
    var resource: Resource<Output> { .graphQL(Self.self, variables: ["episode": episode], in: documents) }
}

@Suite("The client's features, as documented")
struct ClientFeatureExamples {
    static func client(_ registry: StubRegistry, _ configuration: APIClient.Configuration = .init()) -> APIClient {
        APIClient(baseURL: URL(string: "https://api.example.com")!, configuration: configuration, transport: StubTransport(registry))
    }

    @Test func envelopes() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"user": {"id": 1, "name": "Ada"}}"#), for: .get("/me"))
        try registry.register(StubResponse(json: #"{"user": {"id": 1, "name": "Ada"}, "meta": {"v": 2}}"#), for: .get("/me/full"))
        let client = Self.client(registry)
        // {"user": {"id": 1, "name": "Ada"}}
        let ada = try await client.send(Resource<User>.get("/me").unwrapped())
        // {"user": {…}, "meta": {…}}: more than one key, so name the one to open
        let same = try await client.send(Resource<User>.get("/me/full").unwrapped(otherwise: "user"))
        #expect(ada == same)
    }

    @Test func lossyArrays() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"[{"sku": "A", "price": 1}, {"sku": "B"}]"#), for: .get("/products"))
        try registry.register(StubResponse(json: #"{"title": "Spring", "products": [{"sku": "A", "price": 1}, null]}"#), for: .get("/catalog"))
        let client = Self.client(registry)
        let products = try await client.send(Resource<[Product]>.get("/products").lossyArrays())
        let catalog = try await client.send(Resource<Catalog>.get("/catalog"))
        #expect(products == [Product(sku: "A", price: 1)])
        #expect(catalog.products == [Product(sku: "A", price: 1)])
    }

    @Test func fallback() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"message": "back at noon"}"#), for: .get("/products/7"))
        let client = Self.client(registry)
        @Sendable func show(_ product: Product) { Issue.record("the product should not decode") }
        do {
            let product = try await client.send(Resource<Product>.get("/products/7").fallback(Maintenance.self))
            show(product)
        } catch .fallback(let notice as Maintenance, _) {
            #expect(notice.message == "back at noon")
        }
    }

    @Test func emptyBodies() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(status: .noContent), for: .any("/products/7"))
        let client = Self.client(registry)
        try await client.send(Resource<Void>.delete("/products/7"))
        let maybe = try await client.send(Resource<Product?>.get("/products/7"))   // 204 No Content: nil
        #expect(maybe == nil)
    }

    @Test func overrides() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"total_cents": 990}"#), for: Route.get("/reports/sales").header(.acceptLanguage, .equalTo("fr")))
        let configuration = APIClient.Configuration(
            lossyArrays: true,
            timeout: .seconds(20),
            cache: .memory(expiry: .seconds(60)),
            cachePolicy: .networkUpdatingCache
        )
        let snakeCase = JSONDecoder()
        snakeCase.keyDecodingStrategy = .convertFromSnakeCase
        let report = Resource<SalesReport>.get("/reports/sales")
            .decoder(snakeCase)
            .header(.acceptLanguage, "fr")
            .unredacted("api_key")
            .timeout(.seconds(90))
            .cachePolicy(.cacheElseNetwork)
        let client = Self.client(registry, configuration)
        #expect(try await client.send(report).totalCents == 990)
        #expect(try await client.send(report).totalCents == 990)
        #expect(registry.journal.totalCount == 1)
    }

    @Test func requestTypes() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: #"{"product": {"sku": "A-1", "price_cents": 250}}"#), for: .get("/products/A-1"))
        try registry.register(StubResponse(json: #"{"sku": "B-2", "price": 99}"#), for: .get("/products/B-2"))
        let client = Self.client(registry)
        let history = ViewHistory()
        let product = try await client.send(ProductDetails(sku: "A-1", history: history))
        let batch: [any Request<Product>] = [ProductDetails(sku: "A-1", history: history), Resource<Product>.get("/products/B-2")]
        #expect(product == Product(sku: "A-1", price: 250))
        var prices: [Int] = []
        for request in batch { prices.append(try await client.send(request).price) }
        #expect(prices == [250, 99])
        #expect(history.products.withLock { $0.count } == 2)
    }

    @Test func otherHosts() async throws {
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "[]"), for: .get("/v1/search"))
        try registry.register(StubResponse(json: #"[{"sku": "K-1", "price": 30}]"#), for: Route.get("/v1/search").query("brand", .equalTo("Acme")).header(.init("X-Signature")!, .equalTo(signature(for: "/v1/search?q=kettle&brand=Acme"))))
        let transport = StubTransport(registry)
        let client = Self.client(registry)
        let hits = try await client.send(.search("kettle", brands: ["Acme"]))
        let sameHits = try await transport.load(StoreSearch.search("kettle"))
        #expect(hits == [Product(sku: "K-1", price: 30)])
        #expect(sameHits.isEmpty)
    }

    @Test func builders() async throws {
        struct Issue: Decodable, Sendable { let id: Int }
        let registry = StubRegistry()
        try registry.register(StubResponse(json: "[]"), for: Route.get("/issues").query("label", .equalTo("bug")).header(.ifNoneMatch, .equalTo("\"v7\"")))
        let client = Self.client(registry)
        let labels = ["bug"]
        let etag: String? = "\"v7\""
        let issues = Resource<[Issue]>.get("/issues")
            .query { for label in labels { URLQueryItem(name: "label", value: label) } }
            .headers { if let etag { HTTPField(name: .ifNoneMatch, value: etag) } }
        #expect(try await client.send(issues).isEmpty)
    }

    @Test func caching() async throws {
        let registry = StubRegistry()
        let served = Mutex(0)
        try registry.register(ClosureStub { _ in
            StubResponse(json: #"[{"sku": "A", "price": \#(served.withLock { $0 += 1; return $0 })}]"#)
        }, for: .get("/products"))
        let transport = StubTransport(registry)
        let apiURL = URL(string: "https://api.example.com")!
        let cachesFolder = FileManager.default.temporaryDirectory.appending(path: "decoy-docs-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: cachesFolder) }
        var shown: [Int] = []
        func show(_ products: [Product]) { shown.append(products[0].price) }

        let cache = ResponseCache.hybrid(front: .memory(expiry: .seconds(60)), back: .disk(folder: cachesFolder))
        let client = APIClient(baseURL: apiURL, configuration: .init(cache: cache, cachePolicy: .cacheElseNetwork), transport: transport)

        let fresh = try await client.send(Resource<[Product]>.get("/products").cachePolicy(.networkUpdatingCache))
        for try await delivery in client.responses(for: Resource<[Product]>.get("/products").cachePolicy(.cacheThenNetwork)) {
            show(delivery.value)   // first from .cache, then from .network
        }

        #expect(fresh[0].price == 1)
        #expect(shown == [1, 2])
        #expect(try await client.send(Resource<[Product]>.get("/products"))[0].price == 2, "cache first")
    }

    @Test func cancellation() async throws {
        let registry = StubRegistry(clock: TestClock())
        try registry.register(StubResponse(json: "[]", delay: .fixed(.seconds(5))), for: .get("/v1/search"))
        let client = Self.client(registry)
        let search = Task { try await client.send(.search("kettle")) }
        search.cancel()   // the transport call, a stub's delay and any retry wait end with it
        do {
            _ = try await search.value
            Issue.record("expected cancellation")
        } catch let error as APIError {
            guard case .transport(let failure, _) = error else { Issue.record("got \(error)"); return }
            #expect(failure == .cancelled)
        }
    }

    @Test func graphQL() async throws {
        let graphQLFolder = FileManager.default.temporaryDirectory.appending(path: "decoy-docs-graphql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: graphQLFolder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: graphQLFolder) }
        try Data("query HeroName($episode: Episode) { hero(episode: $episode) { name } }".utf8).write(to: graphQLFolder.appending(path: "HeroName.graphql"))
        let registry = StubRegistry()
        try registry.register(ConditionalStub(
            when: { $0.bodyText.contains("JEDI") },
            then: StubResponse(json: #"{"data": {"hero": {"name": "R2-D2"}}}"#),
            else: StubResponse(json: #"{"data": null, "errors": [{"message": "unknown episode"}]}"#)
        ), for: .post("/graphql"))
        let client = Self.client(registry)
        var printed: [String] = []
        func print(_ text: Any) { printed.append("\(text)") }

        do {
            let hero = try await client.send(HeroName(episode: "JEDI", documents: graphQLFolder)).hero
            print(hero.name)
        } catch .graphQL(let errors, _, _) {
            print(errors.map(\.message))
        }

        do {
            _ = try await client.send(HeroName(episode: "NONE", documents: graphQLFolder))
        } catch .graphQL(let errors, _, _) {
            print(errors.map(\.message))
        }
        #expect(printed == ["R2-D2", #"["unknown episode"]"#])
    }
}
