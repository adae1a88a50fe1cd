import Foundation
import HTTPTypes
import Testing

@testable import Decoy

/// The expected texts are what WireMock 2.35.1 (`--local-response-templating`) answered for the
/// same template and request, unless a test says it differs on purpose.
@Suite("Response templates: the dialect")
struct ResponseTemplateTests {
    /// 2026-11-25T01:43:14Z.
    static let instant = Date(timeIntervalSince1970: 1_795_570_994.841)

    func render(
        _ template: String, _ method: HTTPRequest.Method = .get, _ target: String = "/", headers: HTTPFields = [:],
        body: String = "", seed: UInt64 = 1
    ) throws -> String {
        let request = StubRequest(method: method, target: target, headerFields: headers, body: Data(body.utf8))
        let context = TemplateContext(request: request, now: { Self.instant }, random: RandomSource(seed: seed))
        return try ResponseTemplate(template).render(context)
    }

    func syntaxError(_ template: String) -> (line: Int, column: Int, helper: String?, reason: String)? {
        do {
            _ = try ResponseTemplate(template)
            return nil
        } catch {
            guard case .invalidTemplate(let line, let column, let helper, let reason) = error else { return nil }
            return (line, column, helper, reason)
        }
    }

    @Test func pathPartsAreDecodedAndEscapedUnlessTripleBraced() throws {
        let text = try render(
            """
            [{{request.path}}][{{request.path.[1]}}][{{request.pathSegments.[2]}}][{{request.url}}]\
            [{{{request.path.[2]}}}][{{request.path.[9]}}][{{request.path.x}}][{{request.pathSegments.[0]}}]
            """,
            .get, "/t/path/a%26b/c'd?x=1")
        #expect(text == "[/t/path/a&amp;b/c&#x27;d][path][a&amp;b][/t/path/a%26b/c&#x27;d?x&#x3D;1][a&b][][][t]")
    }

    /// A read at the top of a template is worked out when it is parsed (``RequestRead``); inside
    /// `#with`, the same path is looked up name by name. Both must write the same.
    @Test(arguments: [
        "request.method", "request.url", "request.path.[0]", "request.path.[1]", "request.path.[2]",
        "request.path.[7]", "request.pathSegments.[1]", "request.query.page", "request.query.q",
        "request.query.missing", "request.query.[a b]", "request.headers.X-Id", "request.headers.x-id",
        "request.headers.Missing",
    ])
    func aReadAtTheTopWritesWhatTheSamePathWritesInsideABlock(path: String) throws {
        let write = "{{\(path)}} {{size \(path)}} {{#each \(path)}}<{{this}}>{{/each}}"
        let nested = "{{#with 1}}" + write.replacingOccurrences(of: "request.", with: "../request.") + "{{/with}}"
        let target = "//caf%C3%A9//42/?page=3&q=a&q=b&a+b=%26x"
        let headers: HTTPFields = [.init("X-Id")!: "7", .init("x-id")!: "8"]
        let top = try render(write, .patch, target, headers: headers)
        #expect(top == (try render(nested, .patch, target, headers: headers)))
    }

    /// A read at the top of a template writes a plain value straight from the request's bytes;
    /// what it writes must be what the value looked up name by name writes, escaped or not, for
    /// plain targets and for those it leaves to the value (encoded, not ASCII, to be escaped).
    @Test(
        arguments: [
            "request.method", "request.url", "request.path.[0]", "request.path.[1]", "request.path.[4]",
            "request.query.page", "request.query.q", "request.query.flag", "request.query.e", "request.query.x",
            "request.query.missing", "request.query.é",
        ],
        [
            "/a//42/x'y?page=3&q=a&q=b&flag&e=&x=<y>&&é=1", "/a/42", "/a?", "/caf%C3%A9/4+2?page=%33&q=a+b&é=2",
            "/a/b?page=3&q=é",
        ])
    func aPlainReadWritesWhatItsValueWrites(path: String, target: String) throws {
        let write = "[{{\(path)}}][{{{\(path)}}}]"
        let nested = "{{#with 1}}" + write.replacingOccurrences(of: "request.", with: "../request.") + "{{/with}}"
        #expect(try render(write, .get, target) == (try render(nested, .get, target)))
    }

    @Test func queryHeadersCookiesMethodAndBody() throws {
        let text = try render(
            """
            [{{request.method}}][{{request.query.page}}][{{request.query.ids}}][{{request.query.ids.[1]}}]\
            [{{request.headers.X-Id}}][{{request.cookies.session}}][{{request.body}}][{{{request.body}}}]\
            [{{request.query.missing}}][{{request.headers.x-id}}]
            """,
            .post, "/t/req?page=2&ids=1&ids=2", headers: [HTTPField.Name("X-Id")!: "7<8", .cookie: "session=abc; o=1"],
            body: #"he said "hi" & <b>"#
        )
        #expect(
            text
                == #"""
                [POST][2][1][2][7&lt;8][abc][he said &quot;hi&quot; &amp; &lt;b&gt;][he said "hi" & <b>][][7&lt;8]
                """#
        )
    }

    @Test func jsonPathWritesTextRawAndObjectsAsWireMockDoes() throws {
        let body = #"{"name":"O'Neil \"x\" <y>","obj":{"a":[1,2],"b":1},"arr":[1,"x"],"num":1.50,"flag":true}"#
        let text = try render(
            """
            [{{jsonPath request.body '$.name'}}][{{{jsonPath request.body '$.name'}}}][{{jsonPath request.body \
            '$.obj'}}][{{jsonPath request.body '$.arr'}}][{{jsonPath request.body '$.num'}}][{{jsonPath \
            request.body '$.missing'}}][{{jsonPath request.body '$.flag'}}]
            """,
            .post, "/", body: body
        )
        // WireMock keeps the body's member order ("b" before "a" there); Decoy sorts members by name.
        #expect(
            text
                == """
                [O&#x27;Neil &quot;x&quot; &lt;y&gt;][O'Neil \"x\" <y>][{\n  &quot;a&quot; : [ 1, 2 ],\n  \
                &quot;b&quot; : 1\n}][[1,&quot;x&quot;]][1.5][][true]
                """
        )
        #expect(try render("[{{jsonPath request.body '$.x'}}]", .post, "/", body: "not json") == "[]")
    }

    @Test func jsonPathWritesWhatAnIndefinitePathSelectsAsAList() throws {
        let body = #"{"a":[{"k":1},{"k":2}],"s":["x","y"],"o":{"z":{"q":[1,{"r":2}]},"e":{},"n":[]}}"#
        let text = try render(
            """
            [{{{jsonPath request.body '$.a[*].k'}}}][{{{jsonPath request.body '$.nothing[*]'}}}][{{{jsonPath \
            request.body '$.a[0:1]'}}}][{{{jsonPath request.body '$.s[*]'}}}][{{#each (jsonPath request.body \
            '$.a')}}<{{k}}>{{/each}}][{{size (jsonPath request.body '$.a')}}][{{{jsonPath request.body '$.o'}}}]
            """,
            .post, "/", body: body
        )
        #expect(
            text
                == """
                [[1,2]][][[{\"k\":1}]][[\"x\",\"y\"]][<1><2>][2][{\n  \"e\" : { },\n  \"n\" : [ ],\n  \"z\" : \
                {\n    \"q\" : [ 1, {\n      \"r\" : 2\n    } ]\n  }\n}]
                """
        )
    }

    @Test func nowWithOffsetFormatAndTimezone() throws {
        let text = try render(
            """
            [{{now}}][{{now offset='3 days' format='yyyy-MM-dd'}}][{{now format='epoch'}}][{{now \
            format='unix'}}][{{now timezone='Australia/Sydney' format='yyyy-MM-dd HH:mm:ssZ'}}][{{now offset='-2 \
            hours'}}]
            """
        )
        #expect(
            text
                == """
                [2026-11-25T01:43:14Z][2026-11-28][1795570994841][1795570994][2026-11-25 \
                12:43:14+1100][2026-11-24T23:43:14Z]
                """
        )
        #expect(
            try render("[{{now format='EEE, d MMM yyyy HH:mm:ss'}}][{{now offset='30 seconds'}}]")
                == "[Wed, 25 Nov 2026 01:43:14][2026-11-25T01:43:44Z]")
    }

    @Test func randomValuesHaveTheirKindAndRepeatWithTheSeed() throws {
        let template =
            """
            {{randomValue length=10 type='NUMERIC'}} {{randomValue length=8 type='ALPHANUMERIC' uppercase=true}} \
            {{randomValue type='UUID'}} {{randomValue length=5 type='HEXADECIMAL'}} {{randomValue length=6 \
            type='ALPHABETIC'}} {{uuid}}
            """
        let parts = try render(template, seed: 42).split(separator: " ").map(String.init)
        #expect(parts.count == 6)
        #expect(parts[0].count == 10 && parts[0].allSatisfy(\.isNumber))
        #expect(
            parts[1].count == 8 && parts[1] == parts[1].uppercased()
                && parts[1].allSatisfy { $0.isLetter || $0.isNumber })
        #expect(UUID(uuidString: parts[2]) != nil && parts[2] == parts[2].lowercased())
        #expect(parts[3].count == 5 && parts[3].allSatisfy(\.isHexDigit))
        #expect(parts[4].count == 6 && parts[4].allSatisfy { $0.isLetter && $0.isLowercase })
        #expect(UUID(uuidString: parts[5]) != nil && parts[5] != parts[2])
        #expect(try render(template, seed: 42) == parts.joined(separator: " "))
        #expect(try render(template, seed: 43) != parts.joined(separator: " "))
    }

    @Test func blocks() throws {
        let template =
            """
            [{{#if request.query.a}}A{{else}}noA{{/if}}][{{#unless request.query.a}}U{{/unless}}][{{#each \
            request.query.ids}}{{@index}}={{this}};{{/each}}][{{#each request.query.ids as |id|}}<{{id}}>{{/each}}]
            """
        #expect(try render(template, .get, "/?a=x&ids=1&ids=2") == "[A][][0=1;1=2;][<1><2>]")
        #expect(try render(template) == "[noA][U][][]")
        #expect(
            try render("{{#if request.query.z}}z{{else if request.query.p}}p{{else}}none{{/if}}", .get, "/?p=1") == "p")
        #expect(
            try render(
                "{{#each request.headers}}{{@key}}={{this}};{{/each}}",
                headers: [HTTPField.Name("B")!: "2", HTTPField.Name("a")!: "1"]) == "a=1;B=2;")
        #expect(try render("{{#with request.query}}{{page}}{{/with}}", .get, "/?page=3") == "3")
        #expect(
            try render("{{#each request.path}}{{#if @first}}{{else}},{{/if}}{{this}}{{/each}}", .get, "/a/b/c")
                == "a,b,c")
    }

    /// WireMock compares its request objects, not their text: there `#eq request.method 'GET'`
    /// never holds, nor `eq` on a query value. Decoy compares text, as the templates mean.
    @Test func comparisonsCompareTextAndNumbers() throws {
        #expect(try render("{{#eq request.method 'GET'}}get{{else}}other{{/eq}}") == "get")
        #expect(try render("{{#if (eq request.query.a 'x')}}ax{{/if}}", .get, "/?a=x") == "ax")
        #expect(try render("{{#gt request.query.n 9}}big{{else}}small{{/gt}}", .get, "/?n=10") == "big")
        #expect(try render("{{#and request.query.a (not request.query.b)}}yes{{/and}}", .get, "/?a=1") == "yes")
        #expect(try render("{{neq 1 2}} {{lte 2 2}} {{or false 0 ''}}") == "true true false")
    }

    @Test func stringHelpers() throws {
        let text = try render(
            """
            [{{upper request.query.s}}][{{lower request.query.s}}][{{capitalize \
            request.query.s}}][{{capitalizeFirst request.query.s}}][{{trim request.query.p}}][{{size \
            request.query.ids}}][{{defaultIfEmpty request.query.missing 'dflt'}}][{{join request.query.ids \
            ','}}][{{replace request.query.s 'o' '0'}}][{{substring request.query.s 1 3}}][{{abbreviate \
            request.query.s 5}}]
            """,
            .get, "/?s=hello%20world&p=%20%20pad%20&ids=a&ids=b"
        )
        #expect(
            text == "[HELLO WORLD][hello world][Hello World][Hello world][pad][2][dflt][a,b][hell0 w0rld][el][he...]")
        let more = try render(
            """
            [{{urlEncode request.query.s}}][{{base64 request.query.s}}][{{regexExtract request.query.s \
            '[a-z]+'}}][{{size 'abc'}}]
            """,
            .get, "/?s=hello%20world")
        #expect(more == "[hello+world][aGVsbG8gd29ybGQ&#x3D;][hello][3]")
        #expect(try render("{{base64 'aGk=' decode=true}} {{urlEncode 'a+b%21' decode=true}}") == "hi a b!")
    }

    @Test func whitespaceIsKeptExceptAroundTildes() throws {
        let text = try render(
            """
            a\n{{#if request.query.a}}\n  yes\n{{/if}}\nb {{~request.method~}} c\n{{! comment }}d{{!-- x }} \
            --}}e\\{{x}}
            """,
            .get, "/?a=1")
        #expect(text == "a\n\n  yes\n\nbGETc\nde{{x}}")
    }

    @Test func malformedTemplatesFailWithPlaceAndHelper() {
        let unclosed = syntaxError("ok\n  {{#if request.query.a}}never closed")
        #expect(unclosed?.line == 2 && unclosed?.column == 6 && unclosed?.helper == "if")
        #expect(unclosed?.reason.contains("never closed") == true)
        let unknown = syntaxError("{{nosuchhelper request.path}}")
        #expect(unknown?.helper == "nosuchhelper" && unknown?.column == 3)
        #expect(syntaxError("[{{nosuchthing}}]")?.helper == "nosuchthing")
        #expect(
            syntaxError("{{#if request.query.x}}x{{/unless}}")?.reason.contains("{{/unless}} closes {{#if}}") == true)
        #expect(syntaxError("{{request.nope}}")?.reason.contains("request has no part \"nope\"") == true)
        #expect(syntaxError("{{jsonPath request.body 'name'}}")?.helper == "jsonPath")
        #expect(syntaxError("{{now offset='3 fortnights'}}")?.helper == "now")
        #expect(syntaxError("{{randomValue type='WORDS' length=1}}")?.helper == "randomValue")
        #expect(syntaxError("{{randomValue}}")?.helper == "randomValue")
        #expect(syntaxError("{{upper}}")?.reason == "upper takes 1 value, not 0")
        #expect(syntaxError("{{upper 'a' shout=true}}")?.reason.contains("not shout=") == true)
        #expect(syntaxError("{{> partial}}") != nil)
        #expect(syntaxError("{{request.path") != nil)
        #expect(syntaxError("{{else}}") != nil)
        #expect(syntaxError("{{#each request.query.ids}}{{name}}{{/each}}") == nil)
    }
}
