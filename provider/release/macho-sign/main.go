// macho-sign gives a Mach-O executable an ad-hoc code signature, as `codesign --sign -
// --identifier <id>` does on macOS: a CodeDirectory of the file's page hashes, no certificate.
// macOS refuses to run an arm64 binary without one and kills any binary whose signature no
// longer matches its pages, so the release signs the darwin single executable after the
// bundle is injected. Usage: macho-sign <file> <identifier> (the file is replaced).
package main

import (
	"bytes"
	"fmt"
	"os"

	"github.com/blacktop/go-macho"
	"github.com/blacktop/go-macho/pkg/codesign"
	"github.com/blacktop/go-macho/pkg/codesign/types"
)

func sign(path, id string) error {
	file, err := macho.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	if file.CodeSignature() != nil {
		return fmt.Errorf("%s is already signed: remove that signature first", path)
	}
	original, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := file.CodeSign(&codesign.Config{ID: id, Flags: types.ADHOC}); err != nil {
		return err
	}
	// go-macho's Save writes the segments back to back, which moves __LINKEDIT when a segment
	// ends before the next page (postject's NODE_SEA does). So the file is kept as it is up to
	// __LINKEDIT, with the new header and load commands, followed by the new __LINKEDIT.
	var saved bytes.Buffer
	if err := file.SaveBuffer(&saved); err != nil {
		return err
	}
	linkedit := file.Segment("__LINKEDIT")
	commandsEnd := uint64(machoHeaderSize) + uint64(file.SizeCommands)
	signed := append([]byte{}, original[:linkedit.Offset]...)
	copy(signed, saved.Bytes()[:commandsEnd])
	signed = append(signed, saved.Bytes()[uint64(saved.Len())-linkedit.Filesz:]...)
	temporary := path + ".signed"
	if err := os.WriteFile(temporary, signed, 0o755); err != nil {
		return err
	}
	return os.Rename(temporary, path)
}

// The size of a 64-bit Mach-O header, before the load commands.
const machoHeaderSize = 32

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: macho-sign <file> <identifier>")
		os.Exit(2)
	}
	if err := sign(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintf(os.Stderr, "macho-sign: %v\n", err)
		os.Exit(1)
	}
}
