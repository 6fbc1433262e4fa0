package store

import "github.com/informer-gen/informer-gen/runtime/cache/internal/probe"

// idSet is the set of object ids filed under one index value. It is a value
// type held in the index maps: a set of one id (the common case for
// unique-valued indexes such as by-UID or by-owner) costs no allocation at
// all; small sets are a short list; large ones a probe.Table of 4-byte
// slots. Not safe for concurrent use.
type idSet struct {
	one uint32 // id+1 of the sole member when bag is nil; 0 when empty
	bag *idBag
}

// idBag holds two ids or more: a list while there are at most idListMax,
// a probe.Table of id+1 slots while table is allocated. Not safe for
// concurrent use.
type idBag struct {
	list  []uint32 // members, while the table is not allocated
	table probe.Table[uint32]
}

const (
	// idListMax is the largest set kept as a list; idListMin is the size
	// at which a table is turned back into a list (hysteresis).
	idListMax = 16
	idListMin = 8
)

// len returns the number of members.
func (s idSet) len() int {
	switch {
	case s.bag != nil:
		return s.bag.len()
	case s.one != 0:
		return 1
	}
	return 0
}

// has reports whether id is a member.
func (s idSet) has(id uint32) bool {
	switch {
	case s.bag == nil:
		return s.one == id+1
	case s.bag.table.Size() == 0:
		for _, m := range s.bag.list {
			if m == id {
				return true
			}
		}
		return false
	}
	for i, m := s.bag.table.First(id + 1); m != 0; i, m = s.bag.table.Next(i) {
		if m == id+1 {
			return true
		}
	}
	return false
}

// add inserts id; adding a member is a no-op.
func (s *idSet) add(id uint32) {
	switch {
	case s.bag == nil && s.one == 0:
		s.one = id + 1
		return
	case s.bag == nil:
		if s.one == id+1 {
			return
		}
		s.bag = &idBag{list: []uint32{s.one - 1, id}, table: probe.New[uint32](probe.IDSizing, 0)}
		s.one = 0
		return
	}
	b := s.bag
	if b.table.Size() == 0 {
		for _, m := range b.list {
			if m == id {
				return
			}
		}
		if len(b.list) < idListMax {
			b.list = append(b.list, id)
			return
		}
		b.toTable(idListMax + 1)
	}
	b.table.Add(id + 1)
}

// remove deletes id; removing a non-member is a no-op.
func (s *idSet) remove(id uint32) {
	if s.bag == nil {
		if s.one == id+1 {
			s.one = 0
		}
		return
	}
	b := s.bag
	if b.table.Size() == 0 {
		for i, m := range b.list {
			if m == id {
				last := len(b.list) - 1
				b.list[i] = b.list[last]
				b.list = b.list[:last]
				break
			}
		}
	} else if b.table.Remove(id + 1) {
		switch n := b.table.Len(); {
		case n <= idListMin:
			b.toList()
		case n*8 < b.table.Size() && b.table.Size() > 32:
			b.table.Fit()
		}
	}
	if len(b.list) == 1 {
		s.one = b.list[0] + 1
		s.bag = nil
	}
}

// all calls yield for every member until it returns false.
func (s idSet) all(yield func(id uint32) bool) {
	switch {
	case s.bag == nil:
		if s.one != 0 {
			yield(s.one - 1)
		}
	case s.bag.table.Size() == 0:
		for _, m := range s.bag.list {
			if !yield(m) {
				return
			}
		}
	default:
		for _, m := range s.bag.table.Positions() {
			if m != 0 && !yield(m-1) {
				return
			}
		}
	}
}

// len returns the number of members.
func (b *idBag) len() int {
	if b.table.Size() == 0 {
		return len(b.list)
	}
	return b.table.Len()
}

// toTable moves the members from the list into a table sized for n.
func (b *idBag) toTable(n int) {
	list := b.list
	b.list = nil
	b.table.Reserve(n)
	for _, id := range list {
		b.table.Insert(id + 1)
	}
}

// toList moves the members from the table into a list and releases the
// table.
func (b *idBag) toList() {
	list := make([]uint32, 0, idListMax)
	for _, m := range b.table.Positions() {
		if m != 0 {
			list = append(list, m-1)
		}
	}
	b.list = list
	b.table.Drop()
}
