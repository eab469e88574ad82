import MarfaQueue

/// A command line for each of the fifteen kinds of write, in an order the queue accepts
/// (each update or delete names a row an earlier line created in the copy).
enum EveryKind {
  /// `(kind, arguments)`; `blobFile` is the file `blobs put` uploads.
  static func lines(blobFile: String) -> [(WriteKind, [String])] {
    [
      (
        .createItem,
        ["items", "create", "--type", "note", "--properties", "{\"title\":\"first\",\"n\":1}", "--id", "a1"]
      ),
      (.updateItem, ["items", "update", "a1", "--properties", "{\"title\":\"second\"}", "--as-read"]),
      (.transitionItem, ["items", "transition", "a1", "--state", "archived"]),
      (.deleteItem, ["items", "delete", "a1"]),
      (.restoreItem, ["items", "restore", "a1"]),
      (.createEdge, ["edges", "create", "--source", "a1", "--target", "b1", "--type", "links", "--id", "e1"]),
      (.updateEdge, ["edges", "update", "e1", "--properties", "{\"weight\":2}"]),
      (.deleteEdge, ["edges", "delete", "e1"]),
      (.addTag, ["tags", "add", "a1", "urgent"]),
      (.removeTag, ["tags", "remove", "a1", "urgent"]),
      (.replaceMetadata, ["metadata", "replace", "a1", "--tag", "x", "--tag", "y"]),
      (.mergeMetadata, ["metadata", "merge", "a1", "--tag", "z"]),
      (.writeExtension, ["extensions", "write", "a1", "app", "--body", "{\"pinned\":true}"]),
      (.deleteExtension, ["extensions", "delete", "a1", "app"]),
      (.uploadBlob, ["blobs", "put", blobFile]),
    ]
  }
}
