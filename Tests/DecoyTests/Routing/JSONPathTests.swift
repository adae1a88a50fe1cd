import Decoy
import Foundation
import HTTPTypes
import Testing

/// JSON paths as WireMock's `matchesJsonPath` reads them (Jayway's dialect), each checked on a
/// body it selects something in and one it selects nothing in.
@Suite("JSON paths")
struct JSONPathTests {
    private static let order = #"""
        {"id": 7, "customer": {"id": 3, "name": "Ada"},
         "items": [{"sku": "A-1", "price": 12.5, "inStock": true}, {"sku": "B-2", "price": 4, "tags": ["gift"]}],
         "limit": 10}
        """#

    private static func selects(_ path: String, _ matcher: ValueMatcher = .present, in body: String = order) throws
        -> Bool
    {
        let pattern = try RequestPattern(Route.post("/orders").body(.matchesJSONPath(path, matcher)))
        return pattern.matches(StubRequest(method: .post, target: "/orders", body: Data(body.utf8)))
    }

    @Test(arguments: [
        ("$.items[?(@.sku == 'A-1')]", true), ("$.items[?(@.sku == 'C-3')]", false),
        ("$.items[?(@.sku != 'A-1')]", true), (#"$.items[?(@.sku == "B-2")]"#, true),
        ("$.items[?(@.price > 10)]", true), ("$.items[?(@.price > 20)]", false),
        ("$.items[?(@.price >= 4 && @.price <= 4)]", true), ("$.items[?(@.price < 4 || @.price > 13)]", false),
        ("$.items[?(@.tags)]", true), ("$.items[?(@.discount)]", false), ("$.items[?(!@.tags)]", true),
        ("$.items[?(@.inStock == true)]", true), ("$.items[?(@.price < $.limit)]", true),
        ("$.items[?((@.sku == 'A-1' || @.sku == 'B-2') && @.price > 100)]", false),
        ("$..name", true), ("$..nickname", false), ("$..items[1].sku", true),
        ("$.items[0,1].sku", true), ("$.items[5,6]", false), ("$.items[1:]", true), ("$.items[2:5]", false),
        ("$['customer']['name']", true), ("$.customer[?(@.id == 3)]", true), ("$.customer[?(@.id == 4)]", false),
    ])
    func pathsSelectAsWireMocksDo(path: String, selects expected: Bool) throws {
        #expect(try Self.selects(path) == expected, "\(path)")
    }

    @Test func aFilteredPathFeedsItsMatcher() throws {
        #expect(try Self.selects("$.items[?(@.price > 10)].sku", .equalTo("A-1")))
        #expect(try !Self.selects("$.items[?(@.price > 10)].sku", .equalTo("B-2")))
        #expect(try Self.selects("$..id", .equalTo("3")))
    }

    @Test(arguments: [
        (
            "$.items.first()",
            #"""
            "first()" is not a function of WireMock's JSON paths (Jayway 2.7); they are length(), size(), min(), \#
            max(), avg(), sum(), stddev(), keys(), concat(), append()
            """#
        ),
        ("$.items.length().x", #"length() ends the path; nothing may follow it"#),
        ("$.items[?(@.sku =~ /A.*/)]", #"regular expressions in filters ("=~") are not supported"#),
        ("$.items[?(@.sku == 'A-1']", #"a filter is closed by ")]""#),
        (
            "$.items[?(@.sku ==)]",
            #"expected "@…", "$…", a quoted string, a number, true, false or null "# + "in a filter"
        ),
        ("$.items[", #"expected "['name']", "[index]", "[start:end]", "[*]" or "[?(…)]""#),
        ("items", #"a JSON path starts with "$""#),
    ])
    func whatTheDialectHasBeyondThatIsRefusedByName(path: String, reason: String) {
        let error = #expect(throws: DecoyError.self) {
            try RequestPattern(Route.post("/x").body(.matchesJSONPath(path)))
        }
        #expect(error?.reason == #"body with JSON path \#(path): JSON path "\#(path)": \#(reason)"#)
    }

    /// What WireMock 2.35.1 answered (200 or 404) for `matchesJsonPath` with each path on `aggregates`.
    private static let aggregates = #"{"items":[{"p":3},{"p":1.5},{"p":4}],"o":{"a":2,"b":1},"s":"hello","e":[]}"#

    @Test(arguments: [
        ("$[?(@.items.length() > 2)]", true), ("$[?(@.items.length() > 3)]", false), ("$.items.length()", true),
        ("$.e.length()", true), ("$.e.max()", false), ("$.missing.length()", false),
        ("$.items[?(@.length() == 1)]", true), ("$[?(@.s.length() == 5)]", false),
    ])
    func functionsSelectAsWireMocksDo(path: String, selects expected: Bool) throws {
        #expect(try Self.selects(path, in: Self.aggregates) == expected, "\(path)")
    }

    /// Aggregates are Java doubles, which WireMock's matchers read as `4.0`; `length()` is whole.
    @Test func functionValuesFeedTheirMatcher() throws {
        #expect(try Self.selects("$.items.length()", .equalTo("3"), in: Self.aggregates))
        #expect(try !Self.selects("$.items.length()", .equalTo("3.0"), in: Self.aggregates))
        #expect(try Self.selects("$.items.length()", .matches("[0-9]+"), in: Self.aggregates))
        #expect(try !Self.selects("$..p.max()", .equalTo("4"), in: Self.aggregates))
        #expect(try Self.selects("$..p.max()", .equalTo("4.0"), in: Self.aggregates))
        #expect(try Self.selects("$..p.sum()", .equalToJSON("8.5"), in: Self.aggregates))
        // WireMock lists keys in the body's order (here also by name); Decoy lists them by name.
        #expect(try Self.selects("$.o.keys()", .equalToJSON(#"["a","b"]"#), in: Self.aggregates))
    }
}
