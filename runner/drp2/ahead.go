package drp2

import (
	"encoding/json"
	"runtime"
	"sync"
)

// Decoding ahead. A long stream's commands are decoded into wire values
// on other goroutines, in chunks through a fixed ring of buffers, while
// the state machine consumes them strictly in order. Decoding is pure (a
// command's wire value and error depend on its bytes alone), and the
// consumer does for command i exactly what the serial loop does, after
// command i-1 and only then, so the verdict is the serial verdict by
// construction; decoding ahead only moves work to another core.

// aheadConfig is how a Checker decodes ahead. The zero Checker uses
// defaultAhead; tests make the numbers tiny to run the ahead path on short
// streams.
type aheadConfig struct {
	// min is the fewest commands a stream has for its commands to be
	// decoded ahead; a shorter one is checked on one goroutine.
	min int
	// cores is the fewest cores (GOMAXPROCS) the process has for any
	// stream to be decoded ahead.
	cores int
	// chunk is how many commands one buffer of the ring holds.
	chunk int
	// ring is how many buffers the ring has: the memory of decoding ahead
	// is ring×chunk wire values, whatever the length of the stream.
	ring int
	// workers is how many goroutines decode at most; 0 is GOMAXPROCS, up
	// to 4 (decoding a command costs more than checking it, so the
	// consumer, mostly waiting, counts for no core).
	workers int
	// settle, for tests, starts checking only once the workers stopped:
	// with a ring that holds the whole stream, every command is decoded
	// before the first is checked.
	settle bool
}

// defaultAhead keeps the ring small (512 wire values, about 0.5 MB) so
// that it stays in cache: 8 chunks of 512 were measurably slower.
//
// It decodes ahead only from 3 cores. On 2, the runner already checks a
// long stream's commands against the schema on both cores while this
// checker reads them, and the two read the same commands at about the same
// time, from the shared cache. A decoder on the other core read them again
// from memory instead, and the checker read its decoded values across
// cores: on the 1,000,000-command stream (2 cores) decoding ahead took
// 1.67-1.73 s of processor time against 1.43-1.47 s in line, for 1.06-1.07
// s of wall time against 1.21 s (medians of 7 alternating runs, chunks of
// 128 and of 1,024, one worker or two); jsonpos.Object, where a command's
// first byte is read, went from 1% of the samples to 9%.
var defaultAhead = aheadConfig{min: 8192, cores: 3, chunk: 128, ring: 4}

// applies reports whether a stream of n commands is decoded ahead.
func (cfg aheadConfig) applies(n int) bool {
	return n >= cfg.min && runtime.GOMAXPROCS(0) >= cfg.cores
}

// decoded is one command decoded ahead: its wire value and decode's error.
type decoded struct {
	w   wire
	err error
}

// slot is one buffer of the ring. It holds chunk c, then chunk c+len(ring),
// and so on: free says the consumer is done with its last chunk (so a
// worker may fill it), ready that a worker filled it (so the consumer may
// read it).
type slot struct {
	items       []decoded
	free, ready chan struct{}
}

// decoder decodes the chunks of one stream ahead of its consumer.
type decoder struct {
	cmds  []json.RawMessage
	ring  []slot
	chunk int
	stop  chan struct{}
	wg    sync.WaitGroup
}

func (cfg aheadConfig) decoders() int {
	if cfg.workers > 0 {
		return cfg.workers
	}
	return min(runtime.GOMAXPROCS(0), 4)
}

// startDecoder starts decoding cmds ahead; close must follow.
func startDecoder(cmds []json.RawMessage, cfg aheadConfig) *decoder {
	d := &decoder{cmds: cmds, chunk: max(cfg.chunk, 1), stop: make(chan struct{})}
	chunks := (len(cmds) + d.chunk - 1) / d.chunk
	w := max(min(cfg.decoders(), chunks), 1)
	// Worker k fills chunks k, k+w, k+2w...: with a ring of a multiple of
	// w buffers each buffer has one worker, which fills it in order.
	n := (max(cfg.ring, w) + w - 1) / w * w
	d.ring = make([]slot, n)
	for i := range d.ring {
		d.ring[i] = slot{items: make([]decoded, d.chunk), free: make(chan struct{}, 1), ready: make(chan struct{}, 1)}
		d.ring[i].free <- struct{}{}
	}
	d.wg.Add(w)
	for k := range w {
		go d.work(k, w, chunks)
	}
	if cfg.settle {
		d.wg.Wait()
	}
	return d
}

// work decodes chunks k, k+step, k+2×step and so on, each into its slot
// once the consumer freed it, until the last chunk or a stop.
func (d *decoder) work(k, step, chunks int) {
	defer d.wg.Done()
	in := newInterner()
	for c := k; c < chunks; c += step {
		sl := &d.ring[c%len(d.ring)]
		select {
		case <-d.stop:
			return
		default:
		}
		select {
		case <-sl.free:
		case <-d.stop:
			return
		}
		lo := c * d.chunk
		hi := min(lo+d.chunk, len(d.cmds))
		for i := lo; i < hi; i++ {
			it := &sl.items[i-lo]
			it.w = wire{}
			it.err = it.w.decode(d.cmds[i], in)
		}
		sl.ready <- struct{}{}
	}
}

// next returns command i decoded, waiting for its chunk; i runs from 0 up
// by one. Past the first command of a chunk, the previous chunk's slot is
// handed back to the workers.
func (d *decoder) next(i int) *decoded {
	c, j := i/d.chunk, i%d.chunk
	sl := &d.ring[c%len(d.ring)]
	if j == 0 {
		if c > 0 {
			d.ring[(c-1)%len(d.ring)].free <- struct{}{}
		}
		<-sl.ready
	}
	return &sl.items[j]
}

// close stops the workers and waits for them: no goroutine outlives the
// check, and no buffer is written after close returns.
func (d *decoder) close() {
	close(d.stop)
	d.wg.Wait()
}
