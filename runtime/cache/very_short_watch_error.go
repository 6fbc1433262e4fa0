package cache

import "github.com/informer-gen/informer-gen/runtime/cache/internal/reflector"

// VeryShortWatchError is returned when the watch result channel is closed
// within one second, without having sent any events. The Reflector reports
// it to its WatchErrorHandler and watches again after a back-off. It is
// the reflector engine's type (internal/reflector/errors.go), with
// client-go's field and message.
type VeryShortWatchError = reflector.VeryShortWatchError
