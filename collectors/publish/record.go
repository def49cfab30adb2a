// Package publish gets samples from the agent to Kafka without losing them: every sample is
// first appended to a bounded on-disk spool (spool*.go) and leaves it only once Kafka has
// acknowledged it (publisher.go).
package publish

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
)

// Class orders what the spool drops when it is full: interval records first, then the rest.
type Class uint8

// Drop classes.
const (
	// ClassInterval marks per-interval throughput rows: the first dropped when the spool is full.
	ClassInterval Class = 0
	// ClassKeep marks summaries, paths, RTTs, host snapshots and dead letters: dropped last.
	ClassKeep Class = 1
)

// Record is one spooled message.
type Record struct {
	Seq   uint64 // assigned by the spool, increasing, never reused
	Class Class
	Topic string
	Key   []byte
	Value []byte
}

// On disk a record is: magic "LHR1" | body length u32 | CRC-32C of body u32 | body, the body
// being seq u64 | class u8 | topic length u16 | topic | key length u16 | key | value. The
// magic lets a reader find the next record after a damaged one; the CRC catches torn writes.
const (
	magic      = "LHR1"
	headerSize = 12
	maxBody    = 16 << 20
)

var (
	crcTable = crc32.MakeTable(crc32.Castagnoli)
	// errTorn is a record cut short by the end of the file: a crash during its write.
	errTorn = errors.New("record cut short by end of file")
	// errCorrupt is a record whose header or checksum is wrong.
	errCorrupt = errors.New("corrupt record")
)

// encodedSize is the bytes r takes on disk.
func encodedSize(r *Record) int {
	return headerSize + 8 + 1 + 2 + len(r.Topic) + 2 + len(r.Key) + len(r.Value)
}

// appendEncoded appends r's on-disk form to buf.
func appendEncoded(buf []byte, r *Record) []byte {
	bodyLen := encodedSize(r) - headerSize
	start := len(buf)
	buf = append(buf, magic...)
	buf = binary.BigEndian.AppendUint32(buf, uint32(bodyLen))
	buf = binary.BigEndian.AppendUint32(buf, 0) // CRC, filled below
	body := len(buf)
	buf = binary.BigEndian.AppendUint64(buf, r.Seq)
	buf = append(buf, byte(r.Class))
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(r.Topic)))
	buf = append(buf, r.Topic...)
	buf = binary.BigEndian.AppendUint16(buf, uint16(len(r.Key)))
	buf = append(buf, r.Key...)
	buf = append(buf, r.Value...)
	binary.BigEndian.PutUint32(buf[start+8:], crc32.Checksum(buf[body:], crcTable))
	return buf
}

// validRecord checks what Append is given: the on-disk form has 16-bit lengths.
func validRecord(r *Record) error {
	switch {
	case r.Topic == "" || len(r.Topic) > 0xffff:
		return fmt.Errorf("record topic %q: empty or too long", r.Topic)
	case len(r.Key) > 0xffff:
		return fmt.Errorf("record key of %d bytes is too long", len(r.Key))
	case encodedSize(r) > maxBody:
		return fmt.Errorf("record of %d bytes is too large", encodedSize(r))
	}
	return nil
}

// recordReader decodes records from a segment file.
type recordReader struct {
	r   *bufio.Reader
	off int64 // offset of the next record
}

func newRecordReader(r io.Reader) *recordReader {
	return &recordReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next record and its size; io.EOF at a clean end, errTorn at a cut-short
// end, errCorrupt for a damaged record (call resync to go on).
func (rr *recordReader) next() (Record, int, error) {
	hdr, err := rr.r.Peek(headerSize)
	if len(hdr) == 0 && errors.Is(err, io.EOF) {
		return Record{}, 0, io.EOF
	}
	if len(hdr) < headerSize {
		return Record{}, 0, errTorn
	}
	if string(hdr[:4]) != magic {
		return Record{}, 0, errCorrupt
	}
	n := int(binary.BigEndian.Uint32(hdr[4:8]))
	sum := binary.BigEndian.Uint32(hdr[8:12])
	if n < 13 || n > maxBody {
		return Record{}, 0, errCorrupt
	}
	full, err := rr.r.Peek(headerSize + n)
	if len(full) < headerSize+n {
		if errors.Is(err, io.EOF) {
			return Record{}, 0, errTorn
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			return rr.nextLarge(n, sum)
		}
		return Record{}, 0, err
	}
	rec, err := decodeBody(full[headerSize:], sum)
	if err != nil {
		return Record{}, 0, err
	}
	rr.r.Discard(headerSize + n)
	rr.off += int64(headerSize + n)
	return rec, headerSize + n, nil
}

// nextLarge reads a record larger than the buffer; a damaged one is not resynced past.
func (rr *recordReader) nextLarge(n int, sum uint32) (Record, int, error) {
	buf := make([]byte, headerSize+n)
	got, err := io.ReadFull(rr.r, buf)
	rr.off += int64(got)
	if err != nil {
		return Record{}, 0, errTorn
	}
	rec, err := decodeBody(buf[headerSize:], sum)
	return rec, headerSize + n, err
}

func decodeBody(body []byte, sum uint32) (Record, error) {
	if crc32.Checksum(body, crcTable) != sum {
		return Record{}, errCorrupt
	}
	var r Record
	r.Seq = binary.BigEndian.Uint64(body)
	r.Class = Class(body[8])
	p := body[9:]
	tl := int(binary.BigEndian.Uint16(p))
	if 2+tl+2 > len(p) {
		return Record{}, errCorrupt
	}
	r.Topic = string(p[2 : 2+tl])
	p = p[2+tl:]
	kl := int(binary.BigEndian.Uint16(p))
	if 2+kl > len(p) {
		return Record{}, errCorrupt
	}
	r.Key = append([]byte(nil), p[2:2+kl]...)
	r.Value = append([]byte(nil), p[2+kl:]...)
	return r, nil
}

// resync skips to the next record magic after a damaged record. It returns the bytes
// skipped, and io.EOF if no further record starts in the file.
func (rr *recordReader) resync() (int64, error) {
	var skipped int64
	rr.r.Discard(1)
	rr.off++
	skipped++
	for {
		b, _ := rr.r.Peek(len(magic))
		if len(b) < len(magic) {
			n, _ := rr.r.Discard(len(b))
			rr.off += int64(n)
			return skipped + int64(n), io.EOF
		}
		if string(b) == magic {
			return skipped, nil
		}
		rr.r.Discard(1)
		rr.off++
		skipped++
	}
}
