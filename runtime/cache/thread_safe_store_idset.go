package cache

import "math/bits"

// idSet is the set of object ids filed under one index value. It is a value
// type held in the index maps: a set of one id (the common case for
// unique-valued indexes such as by-UID or by-owner) costs no allocation at
// all; small sets are a short list; large ones an open-addressing table of
// 4-byte slots. Not safe for concurrent use.
type idSet struct {
	one uint32 // id+1 of the sole member when bag is nil; 0 when empty
	bag *idBag
}

// idBag holds two ids or more.
type idBag struct {
	n     int
	list  []uint32 // members, while table is nil
	table []uint32 // id+1 per slot, 0 is empty; len is a power of two
	shift uint     // 32 - log2(len(table))
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
		return s.bag.n
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
	case s.bag.table == nil:
		for _, m := range s.bag.list {
			if m == id {
				return true
			}
		}
		return false
	}
	_, ok := s.bag.find(id)
	return ok
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
		s.bag = &idBag{n: 2, list: []uint32{s.one - 1, id}}
		s.one = 0
		return
	}
	b := s.bag
	if b.table == nil {
		for _, m := range b.list {
			if m == id {
				return
			}
		}
		if len(b.list) < idListMax {
			b.list = append(b.list, id)
			b.n++
			return
		}
		b.toTable(idListMax + 1)
	}
	if _, ok := b.find(id); ok {
		return
	}
	if (b.n+1)*4 > len(b.table)*3 {
		b.rehash(b.n + 1)
	}
	b.place(id + 1)
	b.n++
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
	if b.table == nil {
		for i, m := range b.list {
			if m == id {
				last := len(b.list) - 1
				b.list[i] = b.list[last]
				b.list = b.list[:last]
				b.n--
				break
			}
		}
	} else if i, ok := b.find(id); ok {
		b.deleteAt(i)
		b.n--
		switch {
		case b.n <= idListMin:
			b.toList()
		case b.n*8 < len(b.table) && len(b.table) > 32:
			b.rehash(b.n)
		}
	}
	if b.n == 1 {
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
	case s.bag.table == nil:
		for _, m := range s.bag.list {
			if !yield(m) {
				return
			}
		}
	default:
		for _, m := range s.bag.table {
			if m != 0 && !yield(m-1) {
				return
			}
		}
	}
}

func (b *idBag) home(slot uint32) int {
	return int((slot * 0x9E3779B9) >> b.shift)
}

func (b *idBag) find(id uint32) (int, bool) {
	mask := len(b.table) - 1
	for i := b.home(id + 1); ; i = (i + 1) & mask {
		switch b.table[i] {
		case id + 1:
			return i, true
		case 0:
			return 0, false
		}
	}
}

func (b *idBag) place(slot uint32) {
	mask := len(b.table) - 1
	i := b.home(slot)
	for b.table[i] != 0 {
		i = (i + 1) & mask
	}
	b.table[i] = slot
}

func (b *idBag) deleteAt(i int) {
	mask := len(b.table) - 1
	for j := (i + 1) & mask; b.table[j] != 0; j = (j + 1) & mask {
		home := b.home(b.table[j])
		if (j > i && (home <= i || home > j)) || (j < i && home <= i && home > j) {
			b.table[i] = b.table[j]
			i = j
		}
	}
	b.table[i] = 0
}

// rehash moves the members into a table sized for n at load <= 3/4.
func (b *idBag) rehash(n int) {
	size := 32
	for n*4 > size*3 {
		size *= 2
	}
	old := b.table
	b.table = make([]uint32, size)
	b.shift = uint(32 - bits.TrailingZeros(uint(size)))
	for _, m := range old {
		if m != 0 {
			b.place(m)
		}
	}
}

func (b *idBag) toTable(n int) {
	list := b.list
	b.list = nil
	b.rehash(n)
	for _, id := range list {
		b.place(id + 1)
	}
}

func (b *idBag) toList() {
	list := make([]uint32, 0, idListMax)
	for _, m := range b.table {
		if m != 0 {
			list = append(list, m-1)
		}
	}
	b.list, b.table, b.shift = list, nil, 0
}
