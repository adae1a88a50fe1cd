import Decoy
import Foundation
import HTTPTypes
import Testing

/// XPaths as WireMock's `matchesXPath` reads them, each checked on a body it selects something
/// in and one it selects nothing in; malformed bodies and expressions never crash.
@Suite("XPaths")
struct XPathTests {
    private static let order = """
        <order id="7" status="open"><customer>Ada</customer>\
        <item sku="A-1"><quantity>2</quantity></item><item sku="B-2"><quantity>1</quantity></item>\
        <note><![CDATA[fragile & heavy]]></note></order>
        """

    private static func selects(_ path: String, _ matcher: ValueMatcher = .present, in body: String = order) throws
        -> Bool
    {
        let pattern = try RequestPattern(Route.post("/orders").body(.matchesXPath(path, matcher)))
        return pattern.matches(StubRequest(method: .post, target: "/orders", body: Data(body.utf8)))
    }

    @Test(arguments: [
        ("/order", true), ("/invoice", false), ("/order/customer", true), ("/order/item/quantity", true),
        ("//quantity", true), ("//price", false), ("/order/*", true), ("/order/@id", true), ("/order/@total", false),
        ("/order[@id='7']", true), ("/order[@id='8']", false), (#"/order[@status="open"]"#, true),
        ("/order[@id!='7']", false),
        ("/order/item[@sku='B-2']/quantity", true), ("/order/item[quantity=2]", true),
        ("/order/item[quantity=5]", false),
        ("/order/item[2]", true), ("/order/item[3]", false), ("/order/item[last()]", true),
        ("/order[@id='7' and @status='open']", true), ("/order[@id='8' or @status='open']", true),
        ("/order[@id='8' or @status='shut']", false),
        ("/order/item[@sku]", true), ("/order/customer[@vip]", false), ("/order/customer/text()", true),
        ("/order/note[.='fragile & heavy']", true),
    ])
    func pathsSelectAsWireMocksDo(path: String, selects expected: Bool) throws {
        #expect(try Self.selects(path) == expected, "\(path)")
    }

    @Test func theSelectedTextFeedsTheMatcher() throws {
        #expect(try Self.selects("/order/customer", .equalTo("Ada")))
        #expect(try !Self.selects("/order/customer", .equalTo("Bob")))
        #expect(try Self.selects("//item/@sku", .equalTo("B-2")))
        #expect(try Self.selects("/order/note", .contains("fragile")))
        // One text around an entity is one text node, as WireMock 2.35.1 matches it.
        #expect(try Self.selects("/a/b/text()", .equalTo("hi & x"), in: "<a><b>hi &amp; x</b></a>"))
    }

    @Test(arguments: ["<order>", "", "not xml", #"{"order": 7}"#, "<a><b></a>"])
    func aBodyThatIsNotXMLMatchesNothing(body: String) throws {
        #expect(try !Self.selects("/order", in: body))
    }

    @Test(arguments: [
        ("order", #"an XPath starts at the root, with "/" or "//""#),
        ("/order[", #"a step is missing: expected a name, "*", "@name", "text()" or ".""#),
        ("/order[@id='7'", #""[" is not closed"#),
        ("/order/count(item)", #"the function "count()" is not supported"#),
        ("/order/..", #"".." is not supported"#),
        ("/order[@id > 3]", "only = and != compare in predicates"),
        ("/order/child::item", #"axes such as "child::" are not supported"#),
    ])
    func whatXPathHasBeyondThatIsRefusedByName(path: String, reason: String) {
        let error = #expect(throws: DecoyError.self) { try RequestPattern(Route.post("/x").body(.matchesXPath(path))) }
        #expect(error?.reason == #"body with XPath \#(path): XPath "\#(path)": \#(reason)"#)
    }
}
