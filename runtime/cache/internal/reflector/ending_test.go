package reflector

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/protocol"
)

// How a watch's end is classified: by error, lifetime, events and whether
// it moved the position.
func TestReflectorWatchEnding(t *testing.T) {
	gone := apierrors.NewResourceExpired("too old resource version")
	tests := []struct {
		name  string
		err   error
		lived time.Duration
		got   tally
		want  protocol.Ending
	}{
		{"closed after a while", nil, time.Minute, tally{}, protocol.EndClosed},
		{"closed at once after a change", nil, 10 * time.Millisecond, tally{events: 1, changes: 1}, protocol.EndClosed},
		{"closed at once after bookmarks only", nil, 10 * time.Millisecond, tally{events: 1}, protocol.EndClosedEarly},
		{"closed at once without events", &VeryShortWatchError{Name: "w"}, 0, tally{}, protocol.EndVeryShort},
		{"idle", fmt.Errorf("w: %w", ErrWatchIdle), time.Hour, tally{}, protocol.EndIdle},
		{"connection cut", fmt.Errorf("w: %w", io.ErrUnexpectedEOF), time.Second, tally{3, 3}, protocol.EndTransient},
		{"too many requests", apierrors.NewTooManyRequests("slow down", 1), 0, tally{}, protocol.EndTransient},
		{"410 Gone", fmt.Errorf("w: %w", gone), time.Second, tally{}, protocol.EndExpired},
		{"forbidden", apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no")), 0, tally{}, protocol.EndFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := watchEnding(tt.err, tt.lived, tt.got); got != tt.want {
				t.Errorf("watchEnding = %v, want %v", got, tt.want)
			}
		})
	}
}
