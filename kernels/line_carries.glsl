// Line carries of the rows kernels (ScanDesc::carryIn, totals): a value a
// line in aux, in line order, from word `start` (0 in rows_scan.comp; after
// the look-back's words in rows_onepass.comp): the carry-ins where
// kLineCarryIn, then the totals where kLineTotals, each region rounded up to
// 16 bytes (GpuPlanner::scratchBeforeCarries(), Planner::planCarried()).
// The carry-in enters at the line's root; the total is the root's value.
// Include after publication.glsl (ACC_WORDS, wordsOf, accOfWords).

layout(constant_id = VKSCAN_SPEC_LINE_CARRY_IN) const bool kLineCarryIn = false;
layout(constant_id = VKSCAN_SPEC_LINE_TOTALS) const bool kLineTotals = false;

uint roundToVector(uint words) { return (words + 3u) & ~3u; }

uint auxWord(uint word) { return WordRef(addressOffset(p.auxAddr, OFFSET_T(word) * 4)).v; }

void setAuxWord(uint word, uint value) {
  WordRef(addressOffset(p.auxAddr, OFFSET_T(word) * 4)).v = value;
}

// The carry into line `line`'s root: its carry-in, or the identity.
ACC_T rootCarry(uint start, uint line) {
  if (!kLineCarryIn) return identity();
  uint word = start + line * ACC_WORDS;
  uvec2 words = uvec2(auxWord(word), 0u);
  if (ACC_WORDS == 2u) words.y = auxWord(word + 1u);
  return accOfWords(words);
}

void storeLineTotal(uint start, uint line, ACC_T total) {
  if (!kLineTotals) return;
  uint carries = kLineCarryIn ? roundToVector(p.lineCount * ACC_WORDS) : 0u;
  uint word = start + carries + line * ACC_WORDS;
  uvec2 words = wordsOf(total);
  setAuxWord(word, words.x);
  if (ACC_WORDS == 2u) setAuxWord(word + 1u, words.y);
}
