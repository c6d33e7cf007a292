// The statistics an experiment reports: a mean with its 95% interval over repeats (Student's t,
// since a cell is repeated a few times, not hundreds), and a rate with Wilson's interval (which
// stays inside 0–1 and is honest at 0 of 5). Pure functions; checked against published tables.

const round = (x: number) => Math.round(x * 1e6) / 1e6;

function lnGamma(x: number): number {
  // Lanczos approximation (g = 7, n = 9): 15 significant digits for x > 0.
  const [c0, ...c] = [
    0.9999999999998099, 676.5203681218851, -1259.1392167224028, 771.3234287776531,
    -176.61503916999186, 12.507343278686905, -0.13857109526572012, 9.984369578019572e-6,
    1.5056327351493116e-7,
  ];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const y = x - 1;
  const t = y + 7.5;
  const a = c.reduce((sum, ci, i) => sum + ci / (y + i + 1), c0);
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(a);
}

// The continued fraction of the regularized incomplete beta function (Lentz's method).
function betaFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  d = 1 / (Math.abs(d) < tiny ? tiny : d);
  let h = d;
  for (let m = 1; m <= 300; m++) {
    const m2 = 2 * m;
    for (const aa of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + aa * d;
      d = 1 / (Math.abs(d) < tiny ? tiny : d);
      c = 1 + aa / c;
      if (Math.abs(c) < tiny) c = tiny;
      h *= d * c;
    }
    if (Math.abs(d * c - 1) < 1e-15) break;
  }
  return h;
}

function incompleteBeta(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(
    lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x),
  );
  return x < (a + 1) / (a + b + 2)
    ? (front * betaFraction(a, b, x)) / a
    : 1 - (front * betaFraction(b, a, 1 - x)) / b;
}

/** P(T ≤ t) for Student's t with `df` degrees of freedom. */
function tCdf(t: number, df: number): number {
  const tail = 0.5 * incompleteBeta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? 1 - tail : tail;
}

/** The t with P(T ≤ t) = p (p > 0.5), by bisection: 60 halvings leave no visible error. */
export function tQuantile(p: number, df: number): number {
  let lo = 0;
  let hi = 1e4;
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2;
    if (tCdf(mid, df) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export type Summary = {
  n: number;
  mean: number | null;
  sd: number | null;
  ci_low: number | null;
  ci_high: number | null;
};

/** Mean, sample standard deviation and the mean's 95% t-interval; one value has no spread. */
export function summarize(values: number[]): Summary {
  const n = values.length;
  if (!n) return { n, mean: null, sd: null, ci_low: null, ci_high: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n < 2) return { n, mean: round(mean), sd: null, ci_low: null, ci_high: null };
  const sd = Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1));
  const half = (tQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
  return {
    n,
    mean: round(mean),
    sd: round(sd),
    ci_low: round(mean - half),
    ci_high: round(mean + half),
  };
}

const Z95 = 1.959963984540054;

/** k successes of n as a rate with its 95% Wilson score interval. */
export function wilson(k: number, n: number) {
  if (!n) return { rate: null, low: null, high: null };
  const p = k / n;
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return {
    rate: round(p),
    low: round(Math.max(0, centre - half)),
    high: round(Math.min(1, centre + half)),
  };
}

/** Cohen's kappa of two yes/no raters from their 2×2 table; null when chance explains all. */
export function cohenKappa(yy: number, yn: number, ny: number, nn: number): number | null {
  const n = yy + yn + ny + nn;
  if (!n) return null;
  const observed = (yy + nn) / n;
  const chance = ((yy + yn) * (yy + ny) + (ny + nn) * (yn + nn)) / (n * n);
  return chance === 1 ? null : round((observed - chance) / (1 - chance));
}
