/// What happens when some elements of a top-level JSON array do not decode.
public enum ArrayDecoding: Sendable, Hashable {
    /// One bad element fails the whole response.
    case strict
    /// Bad elements are dropped and the others kept, so that one malformed record does not hide
    /// a whole list; inside a model, ``LossyArray`` does the same for one property.
    case lossy
}
