package ring

import (
	"context"
	"math"
	"testing"

	"github.com/informer-gen/informer-gen/shard"
)

func TestDynamicTargetSetsTheRangesAndWaitsForEveryInformer(t *testing.T) {
	src := shard.NewDynamic(shard.Selector{})
	sub := src.Subscribe("widgets")
	first, changed := sub.Current()
	sub.Applied(first)
	done := make(chan error, 1)
	go func() {
		done <- DynamicTarget{Source: src}.Set(context.Background(), Ranges{{0, 9}, {1 << 63, math.MaxUint64}})
	}()
	<-changed
	select {
	case err := <-done:
		t.Fatalf("Set returned %v before the informer applied the shard", err)
	default:
	}
	s, _ := sub.Current()
	sub.Applied(s)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sel := src.Shard().(shard.Selector)
	want := []shard.Range{{Start: 0, End: 10}, {Start: 1 << 63, End: 0}}
	if got := sel.Ranges(); len(got) != 2 || got[0] != want[0] || got[1] != want[1] || sel.Key() != shard.UID {
		t.Errorf("shard %v over %s, want %v over %s", got, sel.Key(), want, shard.UID)
	}
}
