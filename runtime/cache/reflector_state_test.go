package cache

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The transition table: what follows a watch, by how it ended.
func TestReflectorTransitionAfterAWatch(t *testing.T) {
	gone := apierrors.NewResourceExpired("too old resource version")
	tests := []struct {
		name  string
		err   error
		lived time.Duration
		want  transition
	}{
		{"closed by the server after a while: watch again at once", nil, time.Minute, transition{next: phaseWatch}},
		{"closed by the server at once, events seen: back off", nil, 10 * time.Millisecond, transition{next: phaseWatch, backoff: true}},
		{"idle: report, watch again at once", fmt.Errorf("w: %w", errWatchIdle), time.Minute, transition{next: phaseWatch, report: true}},
		{"closed at once without events: report and back off", fmt.Errorf("w: %w", errVeryShortWatch), 0, transition{next: phaseWatch, report: true, backoff: true}},
		{"connection cut: report and back off", fmt.Errorf("w: %w", io.ErrUnexpectedEOF), time.Second, transition{next: phaseWatch, report: true, backoff: true}},
		{"too many requests: report and back off", apierrors.NewTooManyRequests("slow down", 1), 0, transition{next: phaseWatch, report: true, backoff: true}},
		{"410 Gone: relist", fmt.Errorf("w: %w", gone), time.Second, transition{next: phaseList}},
		{"forbidden: relist (reported by Run)", apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no")), 0, transition{next: phaseList}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := after(tt.err, tt.lived); got != tt.want {
				t.Errorf("after(%v, %v) = %+v, want %+v", tt.err, tt.lived, got, tt.want)
			}
		})
	}
}

// The position gives the resourceVersion of the next list and watch list:
// "0" (then "") before any list, the position itself, "" once expired
// until a list is stored again.
func TestReflectorPositionResourceVersions(t *testing.T) {
	p := newPosition()
	steps := []struct {
		do                  func()
		list, watchList, rv string
	}{
		{func() {}, "0", "", ""},
		{func() { p.advance("10") }, "10", "10", "10"},
		{p.expire, "", "", "10"},
		{func() { p.advance("12") }, "", "", "12"},
		{p.reset, "12", "12", "12"},
	}
	for i, s := range steps {
		s.do()
		if got := [3]string{p.listFrom(), p.watchListFrom(), p.resourceVersion()}; got != [3]string{s.list, s.watchList, s.rv} {
			t.Errorf("step %d: list from %q, watch list from %q, position %q; want %q, %q, %q", i, got[0], got[1], got[2], s.list, s.watchList, s.rv)
		}
	}
	if p.advance("12") {
		t.Error("advance to the same resourceVersion reported a change")
	}
}
