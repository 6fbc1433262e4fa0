package cache

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// docTable returns the rows of the transition table in
// reflector_state.go's comment, each split into its columns.
func docTable(t *testing.T) [][]string {
	t.Helper()
	src, err := os.ReadFile("reflector_state.go")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	in := false
	for line := range strings.SplitSeq(string(src), "\n") {
		cells := regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(strings.TrimPrefix(line, "//\t")), -1)
		switch {
		case !strings.HasPrefix(line, "//\t"):
			in = false
		case cells[0] == "phase":
			in = true
		case in:
			rows = append(rows, cells)
		}
	}
	if len(rows) == 0 {
		t.Fatal("no transition table in reflector_state.go's comment")
	}
	return rows
}

var (
	phaseByName  = map[string]phase{}
	endingByName = map[string]ending{}
)

func init() {
	for p, name := range phaseNames {
		phaseByName[name] = phase(p)
	}
	for e, name := range endingNames {
		endingByName[name] = ending(e)
	}
}

// TestReflectorStateTable drives state.next with every phase and ending
// (but stopped), with watch lists on and off, and checks it against the
// table in reflector_state.go's comment: the documentation is the code.
func TestReflectorStateTable(t *testing.T) {
	rows := docTable(t)
	covered := map[[2]string]bool{}
	for _, r := range rows {
		if len(r) > 1 && !strings.HasPrefix(r[1], "(") {
			covered[[2]string{r[0], r[1]}] = true
		}
	}
	for _, r := range rows {
		if len(r) < 6 {
			t.Fatalf("table row %q: want phase, ending, next phase, report, back off, failures", r)
		}
		from, ok := phaseByName[r[0]]
		if !ok {
			t.Fatalf("table row %q: unknown phase %q", r, r[0])
		}
		var ends []ending
		if e, ok := endingByName[r[1]]; ok {
			ends = []ending{e}
		} else {
			// "(any error)" and "(other)": every ending no other row of
			// the phase names (but stopped and, as errors, stored).
			for e, name := range endingNames {
				if ending(e) != endStopped && ending(e) != endStored && !covered[[2]string{r[0], name}] {
					ends = append(ends, ending(e))
				}
			}
		}
		for _, end := range ends {
			for _, watchList := range []bool{false, true} {
				for _, listed := range listedCases(r) {
					for _, stalls := range stallCases(r) {
						checkRow(t, r, state{phase: from, failures: 3, watchList: watchList, listed: listed, stalls: stalls}, end)
					}
				}
			}
		}
	}
}

// listedCases are the values of state.listed a row applies to: the note
// says "resumed" (false) or "listed" (true), else both.
func listedCases(row []string) []bool {
	note := strings.Join(row[6:], " ")
	switch {
	case strings.Contains(note, "resumed"):
		return []bool{false}
	case strings.Contains(note, "listed"):
		return []bool{true}
	}
	return []bool{false, true}
}

// stallCases are the values of state.stalls a row applies to: the note
// says which watch list in a row stalled, else any below the limit.
func stallCases(row []string) []int {
	note := strings.Join(row[6:], " ")
	switch {
	case strings.Contains(note, "1st or 2nd in a row"):
		return []int{0, 1}
	case strings.Contains(note, "3rd in a row"):
		return []int{watchListMaxStalls - 1}
	}
	return []int{0, 1}
}

func checkRow(t *testing.T, row []string, s state, end ending) {
	t.Helper()
	at := time.Unix(1_000_000, 0)
	got, e := s.next(outcome{end: end, at: at, err: errors.New("x")})
	wantPhase := row[2]
	if wantPhase == "relist" {
		wantPhase = map[bool]string{false: "list", true: "watchList"}[s.watchList]
	}
	wantFailures := map[string]int{"=": 3, "+1": 4}[row[5]]
	note := strings.Join(row[6:], " ")
	wantExpired := strings.Contains(note, "position expired")
	offForAWhile := strings.Contains(note, "watch lists off for a while")
	wantStreaming := s.watchList && !strings.Contains(note, "watch lists off")
	wantLater := s.watchList && (offForAWhile || wantStreaming)
	if got.phase.String() != wantPhase || e.report != (row[3] == "yes") || e.backoff != (row[4] == "yes") ||
		got.failures != wantFailures || got.expired != wantExpired || got.streaming(at) != wantStreaming ||
		got.streaming(at.Add(watchListRetryAfter)) != wantLater || e.watchListsOff != offForAWhile {
		t.Errorf("%v after %v (watch lists %t, %d stalls): phase %v, report %t, back off %t, failures %d, expired %t, streaming now %t, later %t; the table says %q",
			s.phase, end, s.watchList, s.stalls, got.phase, e.report, e.backoff, got.failures, got.expired, got.streaming(at), got.streaming(at.Add(watchListRetryAfter)), row)
	}
}

// A healthy step starts the failure count over before the table applies,
// and a stored list or watch list clears the position's expiry without
// resetting the count.
func TestReflectorStateHealthyPeriodsResetTheBackoff(t *testing.T) {
	tests := []struct {
		name         string
		s            state
		o            outcome
		wantFailures int
		wantExpired  bool
	}{
		{"watch delivered a change, then a transient error: first back-off step", state{phase: phaseWatch, failures: 5}, outcome{end: endTransient, healthy: true}, 1, false},
		{"watch delivered a change, then 410: relist at once, no failure", state{phase: phaseWatch, failures: 5, listed: true}, outcome{end: endExpired, healthy: true}, 0, true},
		{"watch from the list's position, then 410: a failure", state{phase: phaseWatch, failures: 5, listed: true}, outcome{end: endExpired}, 6, true},
		{"watch closed cleanly after a change: no failures", state{phase: phaseWatch, failures: 5}, outcome{end: endClosed, healthy: true}, 0, false},
		{"watch closed cleanly without a change: the count stays", state{phase: phaseWatch, failures: 5}, outcome{end: endClosed}, 5, false},
		{"stored list after expiry: expiry cleared, the count stays", state{phase: phaseList, failures: 5, expired: true}, outcome{end: endStored}, 5, false},
		{"stored watch list after expiry: expiry cleared, the count stays", state{phase: phaseWatchList, failures: 5, expired: true}, outcome{end: endStored}, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := tt.s.next(tt.o)
			if got.failures != tt.wantFailures || got.expired != tt.wantExpired {
				t.Errorf("failures %d, expired %t; want %d, %t", got.failures, got.expired, tt.wantFailures, tt.wantExpired)
			}
		})
	}
}

// How a watch's end is classified: by error, lifetime, events and whether
// it moved the position.
func TestReflectorWatchEnding(t *testing.T) {
	gone := apierrors.NewResourceExpired("too old resource version")
	tests := []struct {
		name  string
		err   error
		lived time.Duration
		got   tally
		want  ending
	}{
		{"closed after a while", nil, time.Minute, tally{}, endClosed},
		{"closed at once after a change", nil, 10 * time.Millisecond, tally{events: 1, changes: 1}, endClosed},
		{"closed at once after bookmarks only", nil, 10 * time.Millisecond, tally{events: 1}, endClosedEarly},
		{"closed at once without events", &VeryShortWatchError{Name: "w"}, 0, tally{}, endVeryShort},
		{"idle", fmt.Errorf("w: %w", errWatchIdle), time.Hour, tally{}, endIdle},
		{"connection cut", fmt.Errorf("w: %w", io.ErrUnexpectedEOF), time.Second, tally{3, 3}, endTransient},
		{"too many requests", apierrors.NewTooManyRequests("slow down", 1), 0, tally{}, endTransient},
		{"410 Gone", fmt.Errorf("w: %w", gone), time.Second, tally{}, endExpired},
		{"forbidden", apierrors.NewForbidden(schema.GroupResource{Resource: "pods"}, "", errors.New("no")), 0, tally{}, endFailed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := watchEnding(tt.err, tt.lived, tt.got); got != tt.want {
				t.Errorf("watchEnding = %v, want %v", got, tt.want)
			}
		})
	}
}

// The position gives the resourceVersion of the next list and watch list:
// "0" (then "") before any list, the position itself, "" once expired.
func TestReflectorStateListsFrom(t *testing.T) {
	tests := []struct {
		rv                  string
		expired             bool
		list, watchListFrom string
	}{
		{"", false, "0", ""},
		{"10", false, "10", "10"},
		{"10", true, "", ""},
	}
	for _, tt := range tests {
		s := state{expired: tt.expired}
		if got := [2]string{s.listFrom(tt.rv), s.watchListFrom(tt.rv)}; got != [2]string{tt.list, tt.watchListFrom} {
			t.Errorf("position %q expired %t: list from %q, watch list from %q; want %q, %q", tt.rv, tt.expired, got[0], got[1], tt.list, tt.watchListFrom)
		}
	}
}
