package reflector

import (
	"fmt"

	"github.com/informer-gen/informer-gen/runtime/cache/internal/queue"
)

// listedPages takes the pages of a LIST as they arrive. A first list goes
// into the reflector's sink page by page when the sink opens one
// (sink.OpenFirstList: the informer's queue's), so the informer stores and hands
// out the first pages' objects while later ones are being listed; any
// other list is kept whole (each page prepared by the sink as it arrives,
// sink.PrepareListed) and replaces the sink's content at its end,
// atomically (sink.ReplaceListed).
// A first list that restarts (its continue token expired) stops
// streaming: what it queued stays, and the restarted list is stored whole
// like a relist, deleting what it no longer holds.
type listedPages struct {
	r     *Engine
	first queue.FirstList // non-nil while the pages stream into the sink
	items []any           // the objects, when not streaming
	n     int             // objects listed, streamed or kept
}

func (r *Engine) newListedPages() *listedPages {
	p := &listedPages{r: r}
	if f, ok := r.sink.OpenFirstList(); ok {
		p.first = f
	}
	return p
}

// add takes one page's objects.
func (p *listedPages) add(page []any) error {
	p.n += len(page)
	if p.first != nil {
		return p.first.QueueListed(page)
	}
	if err := p.r.sink.PrepareListed(page); err != nil {
		return fmt.Errorf("preparing listed objects: %w", err)
	}
	if p.items == nil {
		p.items = page
		return nil
	}
	p.items = append(p.items, page...)
	return nil
}

// restart drops what was listed, for a list that starts again from its
// first page.
func (p *listedPages) restart() {
	p.abandon()
	p.items, p.n = p.items[:0], 0
}

// finish stores the complete list at resourceVersion.
func (p *listedPages) finish(resourceVersion string) error {
	if p.first != nil {
		p.first.Close(resourceVersion)
		p.first = nil
		return nil
	}
	return p.r.sink.ReplaceListed(p.items, resourceVersion)
}

// abandon ends the streaming of a first list that failed or restarts.
func (p *listedPages) abandon() {
	if p.first != nil {
		p.first.Abandon()
		p.first = nil
	}
}
