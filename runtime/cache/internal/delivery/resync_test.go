package delivery

import (
	"testing"
	"time"

	testingclock "k8s.io/utils/clock/testing"
)

func TestDetermineResyncPeriod(t *testing.T) {
	tests := []struct {
		name           string
		desired, check time.Duration
		want           time.Duration
	}{
		{"no resync wanted", 0, time.Second, 0},
		{"informer never checks", time.Minute, 0, 0},
		{"raised to the check period", time.Second, time.Minute, time.Minute},
		{"kept when longer", time.Hour, time.Minute, time.Hour},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := determineResyncPeriod(tt.desired, tt.check); got != tt.want {
				t.Fatalf("determineResyncPeriod(%v, %v) = %v, want %v", tt.desired, tt.check, got, tt.want)
			}
		})
	}
}

func TestProcessorShouldResyncMarksOnlyDueListeners(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Now())
	p := NewProcessor(clk)
	every := func(d time.Duration) *Listener {
		l := NewListener(ListenerConfig{Handler: funcs{}, Name: d.String(), HasKey: hasKey, Resync: d})
		if err := p.Add(l, time.Second); err != nil {
			t.Fatal(err)
		}
		return l
	}
	fast, slow, never := every(time.Second), every(3*time.Second), every(0)
	_ = never
	steps := []struct {
		advance time.Duration
		want    []*Listener
	}{
		{500 * time.Millisecond, nil},
		{500 * time.Millisecond, []*Listener{fast}},
		{time.Second, []*Listener{fast}},
		{time.Second, []*Listener{fast, slow}},
	}
	for i, s := range steps {
		clk.Step(s.advance)
		got := p.ShouldResync()
		_, syncing := p.snapshot()
		if got != (len(s.want) > 0) || len(syncing) != len(s.want) {
			t.Fatalf("step %d: shouldResync = %v with %d syncing, want %d", i, got, len(syncing), len(s.want))
		}
		for j := range s.want {
			if syncing[j] != s.want[j] {
				t.Fatalf("step %d: syncing[%d] = %s, want %s", i, j, syncing[j].name, s.want[j].name)
			}
		}
	}
}
