/// Builds a list from statements, with `if`, `if let`, `switch` and `for`: the query items
/// (``Resource/query(_:)``) or header fields (``Resource/headers(_:)``) of a resource.
///
/// ```swift
/// let page = Resource<[Issue]>.get("/issues").query {
///     URLQueryItem(name: "page", value: "\(page)")
///     if let filter { URLQueryItem(name: "filter", value: filter) }
///     for tag in tags { URLQueryItem(name: "tag", value: tag) }
/// }
/// ```
@resultBuilder
public enum ListBuilder<Element> {
    /// One element.
    public static func buildExpression(_ element: Element) -> [Element] { [element] }
    /// Several elements, such as an array or an `HTTPFields`.
    public static func buildExpression<Elements: Sequence<Element>>(_ elements: Elements) -> [Element] {
        Array(elements)
    }
    /// The statements' elements, in order.
    public static func buildBlock(_ parts: [Element]...) -> [Element] { parts.flatMap { $0 } }
    /// An `if` without `else`.
    public static func buildOptional(_ part: [Element]?) -> [Element] { part ?? [] }
    /// The `if` branch.
    public static func buildEither(first part: [Element]) -> [Element] { part }
    /// The `else` branch.
    public static func buildEither(second part: [Element]) -> [Element] { part }
    /// A `for` loop.
    public static func buildArray(_ parts: [[Element]]) -> [Element] { parts.flatMap { $0 } }
    /// The elements as the collection the declaration asks for: an array, or `HTTPFields`.
    public static func buildFinalResult<List: RangeReplaceableCollection<Element>>(_ elements: [Element]) -> List {
        List(elements)
    }
}
