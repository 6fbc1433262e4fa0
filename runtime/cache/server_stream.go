package cache

import "github.com/informer-gen/informer-gen/runtime/cache/internal/reflector"

// ServerStream is implemented by the watches that decode a server's watch
// stream themselves instead of through a *watch.StreamWatcher (those of
// runtime/protowatch and runtime/jsonwatch): the reflector treats them as
// streams from a server, not as in-process watches. It is the reflector
// engine's type (internal/reflector/watchlist.go): a FromServer method
// marks the watch.
type ServerStream = reflector.ServerStream
