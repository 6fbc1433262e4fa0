package cache

import (
	"errors"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
)

// pair is a keyed test value: id is its key.
type pair struct{ id, val string }

func pairKey(obj any) (string, error) {
	p, ok := obj.(pair)
	if !ok {
		return "", errors.New("not a pair")
	}
	return p.id, nil
}

func entryID(obj any) (string, error) { return obj.(*TimestampedEntry).Obj.(pair).id, nil }

// expectDeleted reads the keys the fake store reports deleted, in order.
func expectDeleted(t *testing.T, deleted chan string, want ...string) {
	t.Helper()
	for _, key := range want {
		select {
		case got := <-deleted:
			if got != key {
				t.Errorf("deleted %q, want %q", got, key)
			}
		default:
			t.Errorf("%q was not deleted", key)
		}
	}
	select {
	case got := <-deleted:
		t.Errorf("unexpected delete of %q", got)
	default:
	}
}

// Upstream's TestTTLExpirationBasic, TestReAddExpiredItem and TestTTLList:
// expiry happens on read, deleting the entry; a re-added entry is fresh.
func TestExpirationStoreExpiresOnRead(t *testing.T) {
	deleted := make(chan string, 10)
	policy := &FakeExpirationPolicy{NeverExpire: sets.New[string](), RetrieveKeyFunc: entryID}
	s := NewFakeExpirationStore(pairKey, deleted, policy, clock.RealClock{})

	mustSucceed(t, s.Add(pair{"foo", "bar"}))
	if item, exists, err := s.Get(pair{"foo", ""}); err != nil || exists || item != nil {
		t.Errorf("Get of an expired entry = %v, %v, %v; want nil, false, nil", item, exists, err)
	}
	expectDeleted(t, deleted, "foo")

	mustSucceed(t, s.Add(pair{"foo", "different"}))
	policy.NeverExpire.Insert("foo")
	if item, exists, err := s.GetByKey("foo"); err != nil || !exists || item != (pair{"foo", "different"}) {
		t.Errorf("GetByKey after re-add = %v, %v, %v", item, exists, err)
	}

	for _, p := range []pair{{"a", "1"}, {"b", "2"}} {
		mustSucceed(t, s.Add(p))
	}
	policy.NeverExpire.Insert("b")
	list := s.List()
	slices.SortFunc(list, func(x, y any) int { return cmpString(x.(pair).id, y.(pair).id) })
	if !slices.Equal(list, []any{pair{"b", "2"}, pair{"foo", "different"}}) {
		t.Errorf("List = %v, want the unexpired objects", list)
	}
	expectDeleted(t, deleted, "a")
	if keys := s.ListKeys(); len(keys) != 2 {
		t.Errorf("ListKeys after List expired a = %v", keys)
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Upstream's TestTTLPolicy: an entry expires once older than the TTL (not
// at it), and never with a TTL <= 0.
func TestTTLPolicyExpiresOnlyEntriesOlderThanTheTTL(t *testing.T) {
	now := time.Date(2009, time.November, 10, 23, 0, 0, 0, time.UTC)
	const ttl = 30 * time.Second
	tests := []struct {
		name    string
		ttl     time.Duration
		stamp   time.Time
		expired bool
	}{
		{"exactly on the ttl", ttl, now.Add(-ttl), false},
		{"fresh", ttl, now, false},
		{"older than the ttl", ttl, now.Add(-ttl - 1), true},
		{"zero ttl", 0, now.Add(-time.Hour), false},
		{"negative ttl", -1, now.Add(-time.Hour), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := &TTLPolicy{TTL: tt.ttl, Clock: testingclock.NewFakeClock(now)}
			if got := p.IsExpired(&TimestampedEntry{Obj: pair{"a", "1"}, Timestamp: tt.stamp}); got != tt.expired {
				t.Errorf("IsExpired = %v, want %v", got, tt.expired)
			}
		})
	}
}

func TestTTLStoreWritesRefreshAndReplaceStampsAll(t *testing.T) {
	clk := testingclock.NewFakeClock(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC))
	deleted := make(chan string, 10)
	s := NewFakeExpirationStore(pairKey, deleted, &TTLPolicy{TTL: time.Minute, Clock: clk}, clk)
	mustSucceed(t, s.Add(pair{"a", "1"}))
	clk.Step(50 * time.Second)
	mustSucceed(t, s.Update(pair{"a", "2"})) // refreshes a's timestamp
	mustSucceed(t, s.Add(pair{"b", "1"}))
	clk.Step(50 * time.Second)
	if got, ok, _ := s.GetByKey("a"); !ok || got != (pair{"a", "2"}) {
		t.Errorf("an updated entry expired by its first timestamp: %v, %v", got, ok)
	}
	mustSucceed(t, s.Replace([]any{pair{"c", "1"}}, "9"))
	clk.Step(59 * time.Second)
	if got := s.List(); !slices.Equal(got, []any{pair{"c", "1"}}) {
		t.Errorf("after Replace, List = %v", got)
	}
	clk.Step(2 * time.Second)
	if got := s.List(); len(got) != 0 {
		t.Errorf("an entry older than the TTL was listed: %v", got)
	}
	expectDeleted(t, deleted, "c")
	mustSucceed(t, s.Add(pair{"d", "1"}))
	mustSucceed(t, s.Delete(pair{"d", ""}))
	expectDeleted(t, deleted) // Delete is not an expiry: the fake reports expiries only
	if _, ok, _ := s.GetByKey("d"); ok {
		t.Error("Delete left the entry")
	}
	if s.LastStoreSyncResourceVersion() != "9" || s.Resync() != nil {
		t.Errorf("LastStoreSyncResourceVersion = %q, want the Replace's", s.LastStoreSyncResourceVersion())
	}
}

func TestExpirationStoreKeyErrorsAreClientGos(t *testing.T) {
	s := NewTTLStore(pairKey, time.Minute)
	want := "couldn't create key for object 42: not a pair"
	for name, err := range map[string]error{
		"Add":     s.Add(42),
		"Update":  s.Update(42),
		"Delete":  s.Delete(42),
		"Replace": s.Replace([]any{42}, "1"),
		"Get":     func() error { _, _, err := s.Get(42); return err }(),
	} {
		var ke KeyError
		if err == nil || err.Error() != want || !errors.As(err, &ke) || ke.Obj != 42 {
			t.Errorf("%s: err = %v, want KeyError %q", name, err, want)
		}
	}
	mustSucceed(t, s.Add(pair{"a", "1"}))
	if got, ok, _ := s.GetByKey("a"); !ok || got != (pair{"a", "1"}) {
		t.Errorf("a TTL store lost a fresh entry: %v, %v", got, ok)
	}
}

func mustSucceed(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
