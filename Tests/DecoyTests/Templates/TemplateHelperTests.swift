import Foundation
import HTTPTypes
import Testing

@testable import Decoy

/// The helpers WireMock 2.35.1 adds to Handlebars (`math`, `range`, `pickRandom`, `parseJson`,
/// `assign`, `xPath`, `date`, `parseDate`) and JSON path functions in `jsonPath`. Every expected
/// text is what WireMock 2.35.1 (`--global-response-templating`) answered for the same template
/// and request, unless a comment says Decoy differs on purpose.
extension ResponseTemplateTests {
    /// `BigDecimal` arithmetic: a result with no fraction digits is written whole, any other as a
    /// Java double, so `1.5 * 2` is `3.0` and `7 / 2` is `4` (the left operand's scale, half up).
    @Test func mathKeepsJavasScales() throws {
        #expect(
            try render(
                "{{math 1 '+' 2}}|{{math 1 '-' 2}}|{{math 2 '*' 3}}|{{math 7 '/' 2}}|{{math 6 '/' 2}}|{{math 7 '%' 3}}")
                == "3|-1|6|4|3|1")
        #expect(
            try render(
                """
                {{math 1.5 '+' 2}}|{{math '1.5' '*' '2'}}|{{math 7.0 '/' 2}}|{{math 1 '/' 3}}|{{math 10 '/' \
                4.0}}|{{math 0.1 '+' 0.2}}
                """
            ) == "3.5|3.0|3.5|0|3|0.3")
        #expect(
            try render(
                """
                {{math 2 'x' 3}}|{{math 123456789 '*' 1000.0}}|{{math 1 '/' 1000.0}}|{{math 1.0 '/' \
                10000}}|{{math 1 '*' 0.0001}}|{{math 7.0 '+' 0}}|{{math 1.50 '+' 0}}
                """
            ) == "6|1.23456789E11|0|0.0|1.0E-4|7.0|1.5")
        #expect(
            try render(
                """
                {{math 9999999999 '*' 10}}|{{math -3 '%' 2}}|{{math 5 '-' 5.0}}|{{math 2147483647 '+' 1}}|{{math \
                '2.0' '+' 1}}|{{math -7 '/' 2}}|{{math 7.5 '%' 2}}|{{math 2.5 '/' 2}}|{{math -2.5 '/' 2}}
                """
            ) == "99999999990|-1|0.0|2147483648|3.0|-4|1.5|1.3|-1.3")
        #expect(
            try render(
                """
                {{math (jsonPath request.body '$.a') '+' 1}}|{{math (jsonPath request.body '$.b') '*' 2}}|{{math \
                request.query.q '+' 1}}
                """,
                .post, "/?q=2.50", body: #"{"a": 5, "b": 2.5}"#) == "6|5.0|3.5")
    }

    /// WireMock answers a division by zero with a 500; a literal one is refused at load.
    @Test func mathFailsOnAZeroDivisor() throws {
        #expect(throws: TemplateRenderError.self) { try render("{{math 1 '/' request.query.z}}", .get, "/?z=0") }
        #expect(syntaxError("{{math 1 '/' 0}}")?.reason == "math divides by zero")
    }

    @Test func rangeGivesTheWholeNumbersBetweenItsBounds() throws {
        #expect(
            try render("{{#each (range 1 5)}}{{this}},{{/each}}|{{range 1 5}}|{{range 0 0}}|{{size (range 2 4)}}")
                == "1,2,3,4,5,|[1, 2, 3, 4, 5]|[0]|3")
        #expect(try render("{{range -2 1}}|{{range '1' '3'}}") == "[-2, -1, 0, 1]|[1, 2, 3]")
        #expect(try render("{{#each (range 1 3) as |i|}}{{math i '*' 2}} {{/each}}") == "2 4 6 ")
        // WireMock answers 500 for bounds the wrong way round.
        #expect(throws: TemplateRenderError.self) { try render("{{range request.query.a 1}}", .get, "/?a=5") }
    }

    /// Random, so compared with WireMock by what it may give; seeded, so it repeats.
    @Test func pickRandomPicksFromItsValuesOrAList() throws {
        let template =
            """
            {{#each (range 1 20)}}{{pickRandom 'a' 'b' 'c'}}{{/each}}|{{pickRandom (jsonPath request.body \
            '$.l')}}|{{pickRandom 'one'}}
            """
        let text = try render(template, .post, body: #"{"l": [1, 2]}"#, seed: 5)
        let parts = text.split(separator: "|")
        #expect(parts[0].count == 20 && Set(parts[0]).isSubset(of: "abc") && Set(parts[0]).count > 1)
        #expect(["1", "2"].contains(parts[1]) && parts[2] == "one")
        #expect(try render(template, .post, body: #"{"l": [1, 2]}"#, seed: 5) == text)
    }

    /// A parsed object is a Java map when written (`{a=1, b=[1, 2]}`); its members are read by
    /// name. WireMock keeps the document's member order; Decoy sorts members by name.
    @Test func parseJsonAsABlockACallAndAValue() throws {
        #expect(
            try render(
                #"""
                {{#parseJson 'obj'}}{"a":1,"b":[1,2],"c":{"d":"x"}}{{/parseJson}}\#
                [{{obj.a}}][{{obj.b}}][{{obj.c}}][{{obj.c.d}}][{{obj.b.[1]}}][{{obj}}]
                """#
            ) == "[1][[1, 2]][{d&#x3D;x}][x][2][{a&#x3D;1, b&#x3D;[1, 2], c&#x3D;{d&#x3D;x}}]")
        let body = #"{"a":"q"}"#
        #expect(try render("{{parseJson request.body 'j'}}[{{j.a}}]", .post, body: body) == "[q]")
        #expect(try render("[{{parseJson request.body}}]", .post, body: body) == "[{a&#x3D;q}]")
        #expect(try render("{{#with (parseJson request.body)}}[{{a}}]{{/with}}", .post, body: body) == "[q]")
        #expect(
            try render(
                """
                {{parseJson request.body 'j'}}{{#each (range 1 2)}}<{{j.a}}>{{/each}}|{{#parseJson 'k'}} [1, 2] \
                {{/parseJson}}{{#each k}}({{this}}){{/each}}|{{size k}}
                """,
                .post, body: body) == "<q><q>|(1)(2)|2")
        #expect(
            try render(
                #"""
                {{#parseJson 'o'}}{"a": {{request.query.n}}, "l": [{{request.query.n}}, \#
                2]}{{/parseJson}}{{o.a}}|{{o.l.[1]}}|{{size o.l}}
                """#,
                .get, "/?n=7")
                == "7|2|2")
        // WireMock answers 500 for a body that is not JSON.
        #expect(throws: TemplateRenderError.self) {
            try render("{{parseJson request.body 'j'}}", .post, body: "not json")
        }
    }

    /// Handlebars-Java's `assign` keeps its body trimmed, visible in blocks and after them.
    @Test func assignSetsAVariable() throws {
        #expect(
            try render("{{#assign 'x'}}  hi  {{/assign}}[{{x}}]{{#each (range 1 2)}}<{{x}}>{{/each}}") == "[hi]<hi><hi>"
        )
        #expect(try render("{{#assign 'm'}}{{request.method}}{{/assign}}{{#eq m 'POST'}}post{{/eq}}", .post) == "post")
    }

    /// An element is written as indented XML with a line break after it, attributes sorted by
    /// name; several selected are written as the first and walked by `#each`.
    @Test func xPathWritesTextAttributesAndElements() throws {
        let text = try render(
            """
            {{xPath request.body '/a/b/text()'}}|{{xPath request.body '/a/b'}}|{{xPath request.body \
            '/a/@id'}}|{{xPath request.body '/a/c'}}|{{xPath request.body '/a'}}
            """,
            .post, body: #"<a id="7"><b>hi &amp; x</b><b>two</b></a>"#)
        #expect(
            text
                == """
                hi &amp; x|&lt;b&gt;hi &amp;amp; x&lt;/b&gt;\n|7||&lt;a id&#x3D;&quot;7&quot;&gt;\n  &lt;b&gt;hi \
                &amp;amp; x&lt;/b&gt;\n  &lt;b&gt;two&lt;/b&gt;\n&lt;/a&gt;\n
                """
        )
        #expect(
            try render(
                "{{#each (xPath request.body '/a/b')}}[{{this}}]{{/each}}|{{size (xPath request.body '/a/b')}}", .post,
                body: #"<a id="7"><b>hi</b><b>two</b></a>"#) == "[&lt;b&gt;hi&lt;/b&gt;\n][&lt;b&gt;two&lt;/b&gt;\n]|2")
        #expect(
            try render(
                #"""
                {{xPath request.body '//b/text()'}}|{{xPath request.body '/a/b[2]/text()'}}|{{xPath request.body \#
                '/a/b[@k="v"]/text()'}}
                """#,
                .post, body: #"<a><b>1</b><b k="v">2</b></a>"#) == "1|2|2")
        #expect(
            try render(
                "{{{xPath request.body '/a/b'}}}|{{xPath request.body '/a/b/@k'}}", .post,
                body: #"<a><b k="1" j="2">x<c>y</c></b></a>"#) == "<b j=\"2\" k=\"1\">\n  x\n  <c>y</c>\n</b>\n|1")
        #expect(
            try render(
                "{{{xPath request.body '/a/e'}}}|{{{xPath request.body '/a/f'}}}", .post, body: "<a><e/><f>  </f></a>")
                == "<e/>\n|<f>  </f>\n")
        #expect(
            try render(
                """
                {{xPath request.body '/a/b/text()'}}|{{#if (xPath request.body '/a/z')}}y{{else}}n{{/if}}|{{size \
                (xPath request.body '//b')}}
                """,
                .post, body: "<a><b>x</b><c><b>y</b></c></a>") == "x|n|2")
        #expect(
            try render("{{xPath request.body '/a/b/text()'}}", .post, body: "not xml")
                == "[ERROR: not xml is not valid XML]")
    }

    @Test func parseDateAndDate() throws {
        #expect(
            try render(
                """
                {{parseDate '2021-06-14T10:11:12Z'}}|{{date (parseDate '2021-06-14T10:11:12Z')}}|{{date \
                (parseDate '2021-06-14T10:11:12Z') offset='-1 days' format='yyyy-MM-dd'}}
                """
            ) == "2021-06-14T10:11:12Z|2021-06-14T10:11:12Z|2021-06-13")
        #expect(
            try render(
                """
                {{parseDate '14/06/2021' format='dd/MM/yyyy'}}|{{date (parseDate '14/06/2021' \
                format='dd/MM/yyyy') format='yyyy-MM-dd HH:mm'}}
                """
            ) == "2021-06-14T00:00:00Z|2021-06-14 00:00")
        #expect(
            try render(
                """
                {{parseDate '1623665472000' format='epoch'}}|{{parseDate '1623665472' format='unix'}}|{{date \
                (parseDate '1623665472' format='unix') format='epoch'}}|{{date (parseDate '1623665472' \
                format='unix') format='unix'}}
                """
            ) == "2021-06-14T10:11:12Z|2021-06-14T10:11:12Z|1623665472000|1623665472")
        // WireMock 2.35.1's `date` leaves a date in its own offset, whatever `timezone=` says.
        #expect(
            try render(
                """
                {{date (parseDate '2021-06-14T10:11:12Z') timezone='Europe/Paris'}}|{{date (parseDate \
                '2021-06-14T10:11:12Z') timezone='Europe/Paris' format='HH:mm Z'}}
                """
            ) == "2021-06-14T10:11:12Z|10:11 +0000")
        #expect(
            try render(
                """
                {{parseDate '2021-06-14T10:11:12+02:00'}}|{{parseDate '2021-06-14'}}|{{parseDate \
                '2021-06-14T10:11:12.345Z'}}|{{parseDate 'Mon, 14 Jun 2021 10:11:12 GMT'}}|{{parseDate 'garbage'}}
                """
            ) == "2021-06-14T10:11:12+02:00||2021-06-14T10:11:12Z|2021-06-14T10:11:12Z|")
        #expect(
            try render(
                """
                {{date (parseDate '2021-06-14T10:11:12+02:00') format='HH:mm'}}|{{date (parseDate \
                '2021-06-14T10:11:12+02:00') format='unix'}}|{{date (parseDate '2021-06-14T10:11:12+02:00') \
                offset='1 days'}}
                """
            ) == "10:11|1623658272|2021-06-15T10:11:12+02:00")
        #expect(
            try render(
                """
                {{date (parseDate '2021-01-31T10:11:12Z') offset='1 months'}}|{{date (parseDate \
                '2021-06-14T10:11:12Z') offset='1 years' format='yyyy'}}|{{date (parseDate \
                '2021-06-14T10:11:12Z') offset='30 minutes'}}|{{date (parseDate '2021-06-14T10:11:12Z') \
                offset='10 seconds'}}
                """
            ) == "2021-02-28T10:11:12Z|2022|2021-06-14T10:41:12Z|2021-06-14T10:11:22Z")
        #expect(
            try render(
                """
                {{date (parseDate '2021-06-14T10:11:12Z') format='EEE, d MMM yyyy'}}|{{#if (parseDate \
                'garbage')}}y{{else}}n{{/if}}
                """
            )
                == "Mon, 14 Jun 2021|n")
        // Given no date, or text rather than a date, `date` is now; `now` gives a date `date` moves.
        #expect(
            try render(
                """
                {{date}}|{{date request.headers.D offset='1 hours'}}|{{date (now) offset='1 days'}}|{{parseDate \
                (now)}}
                """,
                headers: [HTTPField.Name("D")!: "2021-06-14T10:11:12Z"])
                == "2026-11-25T01:43:14Z|2026-11-25T02:43:14Z|2026-11-26T01:43:14Z|2026-11-25T01:43:14Z")
    }

    /// Jayway 2.7's functions: aggregates are Java doubles (`4.0`); `length()` of text gives
    /// nothing; a function after `..` takes all the scan selects, after `[*]` or a filter each value.
    @Test func jsonPathFunctions() throws {
        let body =
            #"{"items":[{"p":3},{"p":1.5},{"p":4}],"o":{"a":2,"b":1},"s":"hello","e":[],"n":[1,2,3,4],"l":["a"]}"#
        func path(_ path: String) throws -> String {
            try render("{{{jsonPath request.body '\(path)'}}}", .post, body: body)
        }
        let expected: [(String, String)] = [
            ("$.items.length()", "3"), ("$.items.size()", "3"), ("$..p.max()", "4.0"), ("$..p.min()", "1.5"),
            ("$..p.sum()", "8.5"), ("$..p.avg()", "2.8333333333333335"), ("$..p.stddev()", "1.0274023338281635"),
            ("$.n.max()", "4.0"), ("$.n.sum()", "10.0"), ("$.n.avg()", "2.5"), ("$.n.stddev()", "1.118033988749895"),
            ("$.n.min()", "1.0"), ("$.o.length()", "2"), ("$.s.length()", ""), ("$.length()", "6"),
            ("$.e.max()", ""), ("$.e.length()", "0"), ("$.missing.length()", ""), ("$.items[*].p.max()", ""),
            ("$.items[?(@.p > 2)].length()", "[1,1]"), ("$.n.max(10)", "10.0"), ("$.s.max()", ""),
            ("$..p.length()", "0"), ("$.sum($.n[0], $.n[1])", "3.0"), ("$.n.append(5)", "[1,2,3,4,5]"),
            (#"$.l.append("z")"#, #"["a","z"]"#), (#"$.s.concat("x")"#, "x"), (#"$.l.concat("x", "y")"#, "axy"),
            // A Java set, written as one; WireMock lists the keys in the body's order, Decoy by name.
            ("$.o.keys()", "[a, b]"),
        ]
        for (jsonPath, text) in expected { #expect(try path(jsonPath) == text, "\(jsonPath)") }
        #expect(
            try render(
                """
                {{#each (jsonPath request.body '$.o.keys()')}}<{{this}}>{{/each}}|{{math (jsonPath request.body \
                '$.n.avg()') '+' 0}}
                """,
                .post, body: body) == "<a><b>|2.5")
    }

    /// Every helper checks what it can at load, and the error names it.
    @Test(arguments: [
        ("{{math 1 '^' 2}}", "math"), ("{{math 'a' '+' 2}}", "math"), ("{{math 1 '+'}}", "math"),
        ("{{range 3}}", "range"), ("{{range 5 1}}", "range"), ("{{range 'a' 3}}", "range"),
        ("{{pickRandom}}", "pickRandom"), ("{{assign 'x'}}", "assign"), ("{{#assign 1}}y{{/assign}}", "assign"),
        ("{{#parseJson 'o'}}not json{{/parseJson}}", "parseJson"),
        ("{{parseJson request.body request.body}}", "parseJson"),
        ("{{xPath request.body 'count(/a)'}}", "xPath"), ("{{xPath request.body request.query.p}}", "xPath"),
        ("{{date offset='3 fortnights'}}", "date"), ("{{date timezone='Mars/Olympus'}}", "date"),
        ("{{parseDate 'x' zone='UTC'}}", "parseDate"), ("{{jsonPath request.body '$.items.first()'}}", "jsonPath"),
        ("{{jsonPath request.body '$.o.keys().length()'}}", "jsonPath"),
        ("{{#xPath request.body '/a'}}x{{/xPath}}", "xPath"),
        ("{{#jsonPath request.body '$.a'}}x{{/jsonPath}}", "jsonPath"),
    ])
    func helpersCheckTheirArgumentsAtLoad(template: String, helper: String) {
        #expect(syntaxError(template)?.helper == helper, "\(template)")
    }

    /// A variable is named only after it is set; before, the name is refused as any unknown one.
    @Test func variablesAreKnownOnceSet() {
        #expect(syntaxError("{{#assign 'x'}}v{{/assign}}{{x}}") == nil)
        #expect(syntaxError("{{parseJson request.body 'j'}}{{j.a}}") == nil)
        #expect(syntaxError("{{x}}{{#assign 'x'}}v{{/assign}}")?.helper == "x")
    }
}
