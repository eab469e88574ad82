/// What the last environmental failure a write met left behind.
public struct LastFailure: Sendable, Codable, Hashable {
  /// The HTTP status where an answer came; nil for a dropped connection or a timeout.
  public var status: Int?
  /// The start of a text body, cut to 200 Unicode scalars; nil when none came.
  public var text: String?

  /// The most Unicode scalars `text` keeps.
  public static let textLimit = 200

  /// Creates a last failure, cutting `text` to ``textLimit`` Unicode scalars.
  public init(status: Int?, text: String?) {
    self.status = status
    self.text = text.map(LastFailure.cut)
  }

  /// `text` cut to ``textLimit`` Unicode scalars.
  public static func cut(_ text: String) -> String {
    let scalars = text.unicodeScalars
    guard scalars.count > textLimit else { return text }
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars.prefix(textLimit))
    return String(view)
  }
}
