import { useEffect, useRef } from 'react';

/** The background animation's limits, as the product specifies them. */
export const PARTICLE_SETTINGS = {
  /** Never more particles than this, whatever the screen. */
  maxCount: 70,
  /** One particle per this many square CSS pixels of screen. */
  areaPerParticle: 15_000,
  minSize: 0.8,
  maxSize: 2.8,
  /** Particles closer than this to the pointer are pulled towards it. */
  mouseRadius: 150,
  /** Particles closer than this to each other are joined by a faint line. */
  linkDistance: 100,
  maxSpeed: 2,
  /** A particle lives this many animation frames, then is born again elsewhere. */
  minLifetime: 300,
  maxLifetime: 400,
  palette: ['#60a5fa', '#3b82f6', '#818cf8', '#a78bfa'],
} as const;

// How it looks within those limits; tuned by eye.
const LOOK = {
  driftSpeed: 0.35,
  mousePull: 0.04,
  fadeFrames: 40,
  lineRgb: '129, 140, 248',
  lineOpacity: 0.35,
} as const;

type Particle = {
  x: number;
  y: number;
  vx: number;
  vy: number;
  size: number;
  color: string;
  age: number;
  lifetime: number;
};

type Pointer = { x: number; y: number } | null;

export function particleCount(width: number, height: number): number {
  return Math.min(PARTICLE_SETTINGS.maxCount, Math.floor((width * height) / PARTICLE_SETTINGS.areaPerParticle));
}

function between(min: number, max: number): number {
  return min + Math.random() * (max - min);
}

function spawn(width: number, height: number): Particle {
  const { minSize, maxSize, minLifetime, maxLifetime, palette } = PARTICLE_SETTINGS;
  const angle = Math.random() * Math.PI * 2;
  const speed = between(0.2, 1) * LOOK.driftSpeed;
  return {
    x: Math.random() * width,
    y: Math.random() * height,
    vx: Math.cos(angle) * speed,
    vy: Math.sin(angle) * speed,
    size: between(minSize, maxSize),
    color: palette[Math.floor(Math.random() * palette.length)] ?? palette[0],
    age: 0,
    lifetime: Math.round(between(minLifetime, maxLifetime)),
  };
}

/** A newborn or dying particle fades rather than popping in or out. */
function opacity(p: Particle): number {
  return Math.max(0, Math.min(1, p.age / LOOK.fadeFrames, (p.lifetime - p.age) / LOOK.fadeFrames));
}

function step(p: Particle, width: number, height: number, pointer: Pointer): void {
  if (pointer) {
    const dx = pointer.x - p.x;
    const dy = pointer.y - p.y;
    const distance = Math.hypot(dx, dy);
    if (distance > 0 && distance < PARTICLE_SETTINGS.mouseRadius) {
      const pull = LOOK.mousePull * (1 - distance / PARTICLE_SETTINGS.mouseRadius);
      p.vx += (dx / distance) * pull;
      p.vy += (dy / distance) * pull;
    }
  }
  const speed = Math.hypot(p.vx, p.vy);
  if (speed > PARTICLE_SETTINGS.maxSpeed) {
    p.vx = (p.vx / speed) * PARTICLE_SETTINGS.maxSpeed;
    p.vy = (p.vy / speed) * PARTICLE_SETTINGS.maxSpeed;
  }
  p.x = (p.x + p.vx + width) % width;
  p.y = (p.y + p.vy + height) % height;
  p.age += 1;
}

function draw(ctx: CanvasRenderingContext2D, particles: Particle[], width: number, height: number): void {
  ctx.clearRect(0, 0, width, height);
  const { linkDistance } = PARTICLE_SETTINGS;

  ctx.lineWidth = 0.6;
  for (let i = 0; i < particles.length; i += 1) {
    const a = particles[i]!;
    for (let j = i + 1; j < particles.length; j += 1) {
      const b = particles[j]!;
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (distance >= linkDistance) continue;
      const alpha = (1 - distance / linkDistance) * LOOK.lineOpacity * Math.min(opacity(a), opacity(b));
      ctx.strokeStyle = `rgba(${LOOK.lineRgb}, ${alpha.toFixed(3)})`;
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
    }
  }

  for (const p of particles) {
    ctx.globalAlpha = opacity(p);
    ctx.fillStyle = p.color;
    ctx.beginPath();
    ctx.arc(p.x, p.y, p.size, 0, Math.PI * 2);
    ctx.fill();
  }
  ctx.globalAlpha = 1;
}

/**
 * Drifting particles joined by faint lines, drawn to the pointer, behind the page.
 * With reduced motion requested it draws a single still frame.
 */
export function ParticleBackground() {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;

    const reducedMotion = window.matchMedia('(prefers-reduced-motion: reduce)');
    let particles: Particle[] = [];
    let pointer: Pointer = null;
    let width = 0;
    let height = 0;
    let frame = 0;

    const fit = () => {
      width = window.innerWidth;
      height = window.innerHeight;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);

      const wanted = particleCount(width, height);
      particles = particles.slice(0, wanted);
      while (particles.length < wanted) {
        // Spread the ages so the particles do not all fade at the same moment.
        const p = spawn(width, height);
        p.age = Math.floor(between(LOOK.fadeFrames, p.lifetime - LOOK.fadeFrames));
        particles.push(p);
      }
      for (const p of particles) {
        p.x %= width;
        p.y %= height;
      }
    };

    const tick = () => {
      for (let i = 0; i < particles.length; i += 1) {
        const p = particles[i]!;
        step(p, width, height, pointer);
        if (p.age >= p.lifetime) particles[i] = spawn(width, height);
      }
      draw(ctx, particles, width, height);
      frame = window.requestAnimationFrame(tick);
    };

    const start = () => {
      window.cancelAnimationFrame(frame);
      if (reducedMotion.matches) {
        draw(ctx, particles, width, height);
      } else {
        frame = window.requestAnimationFrame(tick);
      }
    };

    const onResize = () => {
      fit();
      if (reducedMotion.matches) draw(ctx, particles, width, height);
    };
    const onPointerMove = (event: PointerEvent) => {
      pointer = { x: event.clientX, y: event.clientY };
    };
    const onPointerLeave = () => {
      pointer = null;
    };

    fit();
    start();
    window.addEventListener('resize', onResize);
    window.addEventListener('pointermove', onPointerMove, { passive: true });
    document.documentElement.addEventListener('pointerleave', onPointerLeave);
    window.addEventListener('blur', onPointerLeave);
    reducedMotion.addEventListener('change', start);

    return () => {
      window.cancelAnimationFrame(frame);
      window.removeEventListener('resize', onResize);
      window.removeEventListener('pointermove', onPointerMove);
      document.documentElement.removeEventListener('pointerleave', onPointerLeave);
      window.removeEventListener('blur', onPointerLeave);
      reducedMotion.removeEventListener('change', start);
    };
  }, []);

  return <canvas ref={canvasRef} className="particle-background" aria-hidden="true" />;
}
