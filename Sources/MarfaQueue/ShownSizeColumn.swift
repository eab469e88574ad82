/// The stored sizes of a write's answer and payload, read beside a page's rows (`length(…) AS
/// answer_bytes`): what the screen says when it shows only their start (``QueueCodec/shownList``).
enum ShownSizeColumn: Int, SQLColumn {
  case answerBytes, payloadBytes
  static let table = "queue"
}
