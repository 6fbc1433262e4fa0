package protocol

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"
)

// docTable returns the rows of the transition table in
// state.go's comment, each split into its columns.
func docTable(t *testing.T) [][]string {
	t.Helper()
	src, err := os.ReadFile("state.go")
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
		t.Fatal("no transition table in state.go's comment")
	}
	return rows
}

var (
	phaseByName  = map[string]Phase{}
	endingByName = map[string]Ending{}
)

func init() {
	for p, name := range phaseNames {
		phaseByName[name] = Phase(p)
	}
	for e, name := range endingNames {
		endingByName[name] = Ending(e)
	}
}

// TestReflectorStateTable drives state.next with every phase and ending
// (but stopped), with watch lists on and off, and checks it against the
// table in state.go's comment: the documentation is the code.
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
		var ends []Ending
		if e, ok := endingByName[r[1]]; ok {
			ends = []Ending{e}
		} else {
			// "(any error)" and "(other)": every ending no other row of
			// the phase names (but stopped and, as errors, stored).
			for e, name := range endingNames {
				if Ending(e) != EndStopped && Ending(e) != EndStored && !covered[[2]string{r[0], name}] {
					ends = append(ends, Ending(e))
				}
			}
		}
		for _, end := range ends {
			for _, watchList := range []bool{false, true} {
				for _, listed := range listedCases(r) {
					for _, stalls := range stallCases(r) {
						checkRow(t, r, State{Phase: from, Failures: 3, WatchList: watchList, Listed: listed, Stalls: stalls}, end)
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
		return []int{WatchListMaxStalls - 1}
	}
	return []int{0, 1}
}

func checkRow(t *testing.T, row []string, s State, end Ending) {
	t.Helper()
	at := time.Unix(1_000_000, 0)
	got, e := s.Next(Outcome{End: end, At: at, Err: errors.New("x")})
	wantPhase := row[2]
	if wantPhase == "relist" {
		wantPhase = map[bool]string{false: "list", true: "watchList"}[s.WatchList]
	}
	wantFailures := map[string]int{"=": 3, "+1": 4}[row[5]]
	note := strings.Join(row[6:], " ")
	wantExpired := strings.Contains(note, "position expired")
	offForAWhile := strings.Contains(note, "watch lists off for a while")
	wantStreaming := s.WatchList && !strings.Contains(note, "watch lists off")
	wantLater := s.WatchList && (offForAWhile || wantStreaming)
	if got.Phase.String() != wantPhase || e.Report != (row[3] == "yes") || e.Backoff != (row[4] == "yes") ||
		got.Failures != wantFailures || got.Expired != wantExpired || got.Streaming(at) != wantStreaming ||
		got.Streaming(at.Add(WatchListRetryAfter)) != wantLater || e.WatchListsOff != offForAWhile {
		t.Errorf("%v after %v (watch lists %t, %d stalls): phase %v, report %t, back off %t, failures %d, expired %t, streaming now %t, later %t; the table says %q",
			s.Phase, end, s.WatchList, s.Stalls, got.Phase, e.Report, e.Backoff, got.Failures, got.Expired, got.Streaming(at), got.Streaming(at.Add(WatchListRetryAfter)), row)
	}
}

// A healthy step starts the failure count over before the table applies,
// and a stored list or watch list clears the position's expiry without
// resetting the count.
func TestReflectorStateHealthyPeriodsResetTheBackoff(t *testing.T) {
	tests := []struct {
		name         string
		s            State
		o            Outcome
		wantFailures int
		wantExpired  bool
	}{
		{"watch delivered a change, then a transient error: first back-off step", State{Phase: PhaseWatch, Failures: 5}, Outcome{End: EndTransient, Healthy: true}, 1, false},
		{"watch delivered a change, then 410: relist at once, no failure", State{Phase: PhaseWatch, Failures: 5, Listed: true}, Outcome{End: EndExpired, Healthy: true}, 0, true},
		{"watch from the list's position, then 410: a failure", State{Phase: PhaseWatch, Failures: 5, Listed: true}, Outcome{End: EndExpired}, 6, true},
		{"watch closed cleanly after a change: no failures", State{Phase: PhaseWatch, Failures: 5}, Outcome{End: EndClosed, Healthy: true}, 0, false},
		{"watch closed cleanly without a change: the count stays", State{Phase: PhaseWatch, Failures: 5}, Outcome{End: EndClosed}, 5, false},
		{"stored list after expiry: expiry cleared, the count stays", State{Phase: PhaseList, Failures: 5, Expired: true}, Outcome{End: EndStored}, 5, false},
		{"stored watch list after expiry: expiry cleared, the count stays", State{Phase: PhaseWatchList, Failures: 5, Expired: true}, Outcome{End: EndStored}, 5, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := tt.s.Next(tt.o)
			if got.Failures != tt.wantFailures || got.Expired != tt.wantExpired {
				t.Errorf("failures %d, expired %t; want %d, %t", got.Failures, got.Expired, tt.wantFailures, tt.wantExpired)
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
		s := State{Expired: tt.expired}
		if got := [2]string{s.ListFrom(tt.rv), s.WatchListFrom(tt.rv)}; got != [2]string{tt.list, tt.watchListFrom} {
			t.Errorf("position %q expired %t: list from %q, watch list from %q; want %q, %q", tt.rv, tt.expired, got[0], got[1], tt.list, tt.watchListFrom)
		}
	}
}
