/// The OpenAPI document the commands' checks hold stubs and real responses against: one
/// operation, `getPet`, whose answer needs an integer `id` and a string `name`.
enum PetsDocument {
    /// The document in YAML; with `server`, its `servers` list names it, and the operation's
    /// path is matched below that server's path.
    static func yaml(server: String? = nil) -> String {
        """
        openapi: 3.0.3
        info: {title: Pets, version: 1.0.0}
        \(server.map { "servers: [{url: '\($0)'}]" } ?? "")
        paths:
          /pets/{id}:
            get:
              operationId: getPet
              parameters:
                - {name: id, in: path, required: true, schema: {type: integer}}
              responses:
                '200':
                  description: A pet.
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [id, name]
                        properties: {id: {type: integer}, name: {type: string}}
        """
    }
}
