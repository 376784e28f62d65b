# Duplicate-heavy text lines for scripts/bench/data.sh's data_dups:
# awk -v n=LINES -v pct=PERCENT -v seed=S -v out=FILE -f dups.awk
function pick(s) { return substr(s, int(rand() * length(s)) + 1, 1) }
function word(   k, s, i) {
  k = int(rand() * 9); s = ""
  for (i = 0; i < k; i++) s = s pick("abcXYZab.-_")
  return s
}
function field(   k) {
  k = rand()
  if (k < 0.35) return int(rand() * 200000) - 1000
  if (k < 0.45) return sprintf("%.2f", rand() * 200 - 100)
  return word()
}
function run_of(c, len,   s) {
  s = c
  while (length(s) < len) s = s s
  return substr(s, 1, len)
}
function pool_line(   k, sep, s, i, long) {
  if (rand() < 0.01) {
    long = run_of(pick("abc"), 1000 + int(rand() * 19000))
    return rand() < 0.5 ? long : word() " " long
  }
  k = 1 + int(rand() * 6); sep = rand() < 0.5 ? " " : ","; s = field()
  for (i = 1; i < k; i++) s = s sep field()
  return s
}
BEGIN {
  srand(seed)
  size = int(n * pct / 100); if (size < 1) size = 1
  for (i = 0; i < size; i++) pool[i] = pool_line()
  for (i = 0; i < n; i++) print pool[int(rand() * size)] >out
  close(out)
}
