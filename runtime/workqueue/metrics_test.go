package workqueue

import (
	"slices"
	"sync"
	"testing"
	"time"

	clocktesting "k8s.io/utils/clock/testing"
)

// recordingMetrics records every call, for assertions.
type recordingMetrics struct {
	mu        sync.Mutex
	depths    []int
	added     int
	latencies []time.Duration
	work      []time.Duration
	retries   int
}

func (m *recordingMetrics) Depth(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.depths = append(m.depths, n)
}

func (m *recordingMetrics) Added() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.added++
}

func (m *recordingMetrics) Latency(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.latencies = append(m.latencies, d)
}

func (m *recordingMetrics) WorkDuration(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.work = append(m.work, d)
}

func (m *recordingMetrics) Retried() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.retries++
}

func TestMetricsMeasureDepthAddsLatencyWorkAndRetries(t *testing.T) {
	clk := clocktesting.NewFakeClock(time.Unix(0, 0))
	m := &recordingMetrics{}
	q := New(Config[string]{Name: "test", Clock: clk, Metrics: m})
	defer q.ShutDown()

	q.Add("a")
	q.Add("a") // absorbed: not an add
	q.Add("b")
	clk.Step(3 * time.Second)
	a, _ := getOrFail(t, q) // waited 3s
	clk.Step(2 * time.Second)
	q.Add("a") // re-added while processing: an add, no depth change yet
	q.Done(a)  // worked 2s; a goes back to the queue
	b, _ := getOrFail(t, q)
	q.Done(b)
	q.AddAfter("c", time.Second)
	q.AddAfter("c", 0)

	m.mu.Lock()
	defer m.mu.Unlock()
	if want := []int{1, 2, 1, 2, 1, 2}; !slices.Equal(m.depths, want) {
		t.Errorf("depths = %v, want %v", m.depths, want)
	}
	if m.added != 4 { // a, b, a again, c
		t.Errorf("added = %d, want 4", m.added)
	}
	if want := []time.Duration{3 * time.Second, 5 * time.Second}; !slices.Equal(m.latencies, want) {
		t.Errorf("latencies = %v, want %v", m.latencies, want)
	}
	if want := []time.Duration{2 * time.Second, 0}; !slices.Equal(m.work, want) {
		t.Errorf("work durations = %v, want %v", m.work, want)
	}
	if m.retries != 2 {
		t.Errorf("retries = %d, want 2", m.retries)
	}
}

func TestNilMetricsKeepsNoPerItemTimestamps(t *testing.T) {
	q := New(Config[string]{})
	defer q.ShutDown()
	q.Add("a")
	item, _ := getOrFail(t, q)
	q.Done(item)
	if q.addedAt != nil || q.startedAt != nil {
		t.Fatal("a queue without metrics allocated timestamp maps")
	}
}
