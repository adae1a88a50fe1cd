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
