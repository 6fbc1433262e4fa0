// Package protocol is the reflector's protocol as a value: State, what
// the reflector knows between two steps (the phase of the next step: a
// list, a watch list or a watch; the failures that set its back-off;
// whether the position expired; whether watch lists are on), and one
// transition function, State.Next, from how a step ended (Outcome, in the
// vocabulary Ending) to the next state and what to do before the next
// step (Effect: report the error, back off). The transition table is
// written once, in state.go's comment, and TestReflectorStateTable checks
// Next against it row by row.
//
// # Data flow
//
//	internal/reflector Engine (its Run goroutine):
//	  s := State{WatchList: ...}; s.Phase = s.Relist(now)
//	  loop: o := step(s)          list / watch list / watch I/O, in internal/reflector
//	        s, e = s.Next(o)      this package: pure, no I/O, no clock
//	        between(s, e)         report, back off
//
// The package does no I/O, starts no goroutine and takes no lock: a State
// belongs to the one goroutine that steps it. How a request's error maps
// to an Ending is internal/reflector's (ending.go), which knows its
// errors.
package protocol
