package measure

// Hooks lets a caller observe the measurements, typically to profile them.
// Nil fields are skipped.
type Hooks struct {
	// Timed is called when a timed phase starts (name says which: for
	// example "ours-updates1"); the function it returns is called when the
	// phase ends.
	Timed func(name string) (end func())
	// Peak is called at the moment a heap figure is taken, while the
	// measured state is live (for example "clientgo-stalled").
	Peak func(name string)
}

// hooks are the installed hooks; see SetHooks.
var hooks Hooks

// SetHooks installs h for every later measurement. It must not be called
// while a measurement runs.
func SetHooks(h Hooks) { hooks = h }

// timed calls hooks.Timed, returning a no-op when it is unset.
func timed(name string) func() {
	if hooks.Timed == nil {
		return func() {}
	}
	return hooks.Timed(name)
}

// peak calls hooks.Peak when it is set.
func peak(name string) {
	if hooks.Peak != nil {
		hooks.Peak(name)
	}
}
