package import HTTPTypes

extension HTTPFields {
    /// The fields as a URLSession client sees them: the values of a repeated name joined with
    /// `", "` into one field where the name first appears (URLSession keeps one value per name,
    /// on every platform), so that in-process servings answer what a server's client receives.
    package var joiningRepeatedNames: HTTPFields {
        // Compared pairwise, without a set to allocate: a response has a handful of fields.
        let repeats = indices.contains { index in
            self[self.index(after: index)...].contains { $0.name == self[index].name }
        }
        guard repeats else { return self }
        var joined = HTTPFields()
        for field in self where joined[field.name] == nil {
            joined[field.name] = self[values: field.name].joined(separator: ", ")
        }
        return joined
    }
}

extension Delivery {
    /// The response's head as a server's client receives it, for in-process servings: a repeated field's values
    /// joined, and the length of a body whose length is known announced in `Content-Length`, as
    /// a server announces it (the stub's own `Content-Length` or `Transfer-Encoding` kept), so
    /// that a client's progress knows what to expect in every serving. What depends on the head
    /// alone is worked out once per stub response, in its serving cache.
    // Pays: scripts/benchmarks recording, replaying recorded stubs under callgrind: joining and
    // looking through the fields on every answer cost most of what a file stub's `Matched-Stub-Id`
    // and `Matched-Stub-Name` add to it.
    package func head(announcing body: Body) -> HTTPResponse {
        let cache = response.cache ?? response.headCache
        let announced =
            cache?.value(AnnouncedHead.self) { AnnouncedHead(response.head) } ?? AnnouncedHead(response.head)
        var head = announced.head
        // Appended, as the field is known to be absent: setting it by name would look for it again.
        if announced.announcesLength, let length = body.length {
            head.headerFields.append(HTTPField(name: .contentLength, value: "\(length)"))
        }
        return head
    }
}

/// A stub response's head as in-process servings hand it on, before its body's length.
private final class AnnouncedHead: Sendable {
    /// The head with a repeated field's values joined.
    let head: HTTPResponse
    /// Whether the body's length goes in `Content-Length`: the head sets neither it nor `Transfer-Encoding`.
    let announcesLength: Bool

    init(_ head: HTTPResponse) {
        var joined = head
        joined.headerFields = head.headerFields.joiningRepeatedNames
        self.head = joined
        announcesLength = joined.headerFields[.contentLength] == nil && joined.headerFields[.transferEncoding] == nil
    }
}
