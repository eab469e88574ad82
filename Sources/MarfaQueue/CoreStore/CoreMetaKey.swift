/// The keys of the Marfa core store's `meta` table that this project reads (never writes).
enum CoreMetaKey: String, Sendable, CaseIterable {
  case serverOrigin = "server_origin"
  case hydrateState = "hydrate_state"
  case eventCursor = "event_cursor"
  case instanceId = "instance_id"
  case schemaVersion = "schema_version"
}
