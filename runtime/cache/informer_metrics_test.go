package cache

import (
	"sync"
	"testing"
	"time"

	"github.com/informer-gen/informer-gen/runtime/cache/cachetest"
	"go.uber.org/goleak"
)

// informerMetricsRecorder keeps what an informer reports.
type informerMetricsRecorder struct {
	mu           sync.Mutex
	maxDepth     int
	depthReports int
	processed    int
	maxLag       map[string]int
	lastLag      map[string]int
	panics       map[string]int
}

func newInformerMetricsRecorder() *informerMetricsRecorder {
	return &informerMetricsRecorder{maxLag: map[string]int{}, lastLag: map[string]int{}}
}

func (m *informerMetricsRecorder) ListDone(int, time.Duration, error) {}
func (m *informerMetricsRecorder) WatchStarted()                      {}
func (m *informerMetricsRecorder) WatchEnded(int, error)              {}
func (m *informerMetricsRecorder) ResourceVersion(string)             {}

func (m *informerMetricsRecorder) QueueDepth(depth int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.depthReports++
	m.maxDepth = max(m.maxDepth, depth)
}

func (m *informerMetricsRecorder) EventsProcessed(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.processed += n
}

func (m *informerMetricsRecorder) HandlerLag(handler string, pending int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.maxLag[handler] = max(m.maxLag[handler], pending)
	m.lastLag[handler] = pending
}

func TestInformerReportsQueueDepthEventsAndHandlerLag(t *testing.T) {
	defer goleak.VerifyNone(t)
	srv := newModelServer()
	fill(srv, 2000)
	m := newInformerMetricsRecorder()
	slow, quick := newViewHandler(), newViewHandler()
	slow.gate = make(chan struct{})
	inf := startInformer(t, srv, SharedIndexInformerOptions{Metrics: m}, func(s *sharedIndexInformer) {
		mustAdd(t, s, slow, HandlerOptions{Name: "slow"})
		mustAdd(t, s, quick, HandlerOptions{Name: "quick"})
	})
	defer inf.stop(t)
	waitConverged(t, srv, inf, quick)
	m.mu.Lock()
	processed, depth, depthReports, slowLag := m.processed, m.maxDepth, m.depthReports, m.maxLag["slow"]
	m.mu.Unlock()
	if processed < 2000 {
		t.Errorf("EventsProcessed summed to %d, want >= 2000", processed)
	}
	if depthReports == 0 || depth == 0 {
		t.Errorf("QueueDepth reported %d times, max %d; want reports of a non-empty queue", depthReports, depth)
	}
	if slowLag < 1000 {
		t.Errorf("HandlerLag(slow) peaked at %d, want the backlog of a blocked handler (>= 1000)", slowLag)
	}
	close(slow.gate)
	waitConverged(t, srv, inf, quick, slow)
	cachetest.Eventually(t, "slow handler's lag back to 0", func() bool {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.lastLag["slow"] == 0 && m.lastLag["quick"] == 0
	})
}

func (m *informerMetricsRecorder) HandlerPanicked(handler string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.panics == nil {
		m.panics = map[string]int{}
	}
	m.panics[handler]++
}

func (m *informerMetricsRecorder) panicsOf(handler string) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.panics[handler]
}
