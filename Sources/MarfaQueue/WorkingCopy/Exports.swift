// The JSON value, the sanitizer and the clock text are part of the queue's public API (a
// `QueuedWrite` carries its body as a `JSONValue`): an app that imports MarfaQueue gets them.
@_exported import MarfaWire
