package protowatch

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/informer-gen/informer-gen/runtime/cache"
)

// The reflector waits for a server's progress on a watch list over a
// stream, not the grace it gives in-process watches.
var _ cache.ServerStream = (*stream[metav1.PartialObjectMetadata, *metav1.PartialObjectMetadata])(nil)
