package cache

import (
	"context"
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

func TestBackoffDoublesToCapAndResetsAfterQuietPeriod(t *testing.T) {
	tests := []struct {
		name   string
		jitter float64
		gaps   []time.Duration // clock advance before each call
		want   []time.Duration
	}{
		{
			name:   "doubles up to the cap without jitter",
			jitter: 0,
			gaps:   []time.Duration{0, 0, 0, 0, 0, 0, 0, 0},
			want: []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
				6400 * time.Millisecond, 12800 * time.Millisecond, 25600 * time.Millisecond, 30 * time.Second, 30 * time.Second},
		},
		{
			name:   "jitter adds up to one base and stays under the cap",
			jitter: 0.5,
			gaps:   []time.Duration{0, 0, 0, 0, 0, 0, 0},
			want: []time.Duration{1200 * time.Millisecond, 2400 * time.Millisecond, 4800 * time.Millisecond,
				9600 * time.Millisecond, 19200 * time.Millisecond, 30 * time.Second, 30 * time.Second},
		},
		{
			name:   "two quiet minutes reset the delay",
			jitter: 0,
			gaps:   []time.Duration{0, time.Second, time.Minute, 2 * time.Minute, time.Second},
			want: []time.Duration{800 * time.Millisecond, 1600 * time.Millisecond, 3200 * time.Millisecond,
				800 * time.Millisecond, 1600 * time.Millisecond},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := testingclock.NewFakeClock(time.Unix(0, 0))
			b := newBackoff(c)
			b.jitter = func() float64 { return tc.jitter }
			for i, gap := range tc.gaps {
				c.Step(gap)
				if got := b.next(); got != tc.want[i] {
					t.Fatalf("call %d: delay %v, want %v", i, got, tc.want[i])
				}
			}
		})
	}
}

func TestSleepReturnsFalseWhenContextEnds(t *testing.T) {
	c := testingclock.NewFakeClock(time.Unix(0, 0))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- sleep(ctx, c, time.Hour) }()
	waitFor(t, "the sleep timer", c.HasWaiters)
	cancel()
	if <-done {
		t.Fatal("sleep reported a full wait after cancellation")
	}
	if c.HasWaiters() {
		t.Fatal("sleep left its timer armed")
	}
	go func() { done <- sleep(context.Background(), c, time.Second) }()
	waitFor(t, "the sleep timer", c.HasWaiters)
	c.Step(time.Second)
	if !<-done {
		t.Fatal("sleep reported cancellation after a full wait")
	}
}
