/// The keys of this project's `meta` table (``MetaColumn/key``), named once.
package enum MetaKey: String, Sendable, CaseIterable {
  /// The fill's state (``FillState``).
  case fill
  /// The instance the copy was filled from.
  case origin
  /// The instance's id, as it last named itself.
  case instanceId = "instance_id"
  /// The event cursor the copy stands at.
  case cursor
  /// The read view (64 hex digits) the copy stream certified the fill with; a catch-up names it
  /// beside its cursor.
  case readView = "read_view"
  /// Why the copy expired (`catchup_too_old`, `cursor_ahead`, `instance_changed`).
  case expiredReason = "expired_reason"
  /// The writer's record (``WriterRecord``).
  case writer
  /// The last drain's report, its verdicts and when it ended.
  case lastDrain = "last_drain"
  case lastDrainVerdicts = "last_drain_verdicts"
  case lastDrainAt = "last_drain_at"
  /// The store's schema version (``StoreSchema/version``).
  case schemaVersion = "schema_version"
}
