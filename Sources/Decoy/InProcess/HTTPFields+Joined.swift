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
    /// `head` as a server's client receives it, for in-process servings: a repeated field's values
    /// joined, and the length of a body whose length is known announced in `Content-Length`, as
    /// a server announces it (the stub's own `Content-Length` or `Transfer-Encoding` kept), so
    /// that a client's progress knows what to expect in every serving.
    package static func head(_ head: HTTPResponse, announcing body: Body) -> HTTPResponse {
        var head = head
        head.headerFields = head.headerFields.joiningRepeatedNames
        guard head.headerFields[.contentLength] == nil, head.headerFields[.transferEncoding] == nil else { return head }
        // Appended, as the field is known to be absent: setting it by name would look for it again.
        if let length = body.length { head.headerFields.append(HTTPField(name: .contentLength, value: "\(length)")) }
        return head
    }
}
