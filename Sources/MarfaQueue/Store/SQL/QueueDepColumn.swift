/// The `queue_deps` table's columns: which write (`id`) depends on which (`on_id`).
enum QueueDepColumn: Int, SQLColumn {
  case id, onId
  static let table = "queue_deps"
}
