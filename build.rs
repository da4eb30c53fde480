//! Renders the unit icons (simple vector shapes drawn for this project) to PNG files in
//! OUT_DIR; `src/app/icons.rs` embeds them with `include_bytes!`.
//!
//! Icons are drawn in light grey with a dark outline so the board can tint them with the
//! owner's colour. Shapes are signed-distance functions sampled with 4×4 supersampling.

use image::{Rgba, RgbaImage};
use std::path::Path;

const SIZE: u32 = 64;

/// Signed distance (in pixels, negative inside) of one icon shape at pixel centre `(x, y)`.
type Shape = fn(f32, f32) -> f32;

/// Shapes drawn in order, each with its fill colour.
type Layers = Vec<(Shape, [u8; 3])>;

fn rounded_square(x: f32, y: f32, half: f32, r: f32) -> f32 {
    let qx = (x - 32.0).abs() - (half - r);
    let qy = (y - 32.0).abs() - (half - r);
    let outside = (qx.max(0.0).powi(2) + qy.max(0.0).powi(2)).sqrt();
    outside + qx.max(qy).min(0.0) - r
}

fn circle(x: f32, y: f32, cx: f32, cy: f32, r: f32) -> f32 {
    ((x - cx).powi(2) + (y - cy).powi(2)).sqrt() - r
}

/// A regular polygon with `n` sides, circumradius `r`, first vertex pointing up.
fn polygon(x: f32, y: f32, n: u32, r: f32) -> f32 {
    let (dx, dy) = (x - 32.0, y - 32.0);
    let apothem = r * (std::f32::consts::PI / n as f32).cos();
    let mut d = f32::MIN;
    for i in 0..n {
        // Edge normals sit between vertices.
        let a = -std::f32::consts::FRAC_PI_2 + (i as f32 + 0.5) * std::f32::consts::TAU / n as f32;
        d = d.max(dx * a.cos() + dy * a.sin() - apothem);
    }
    d
}

fn wall(x: f32, y: f32) -> f32 {
    rounded_square(x, y, 25.0, 5.0)
}

fn support(x: f32, y: f32) -> f32 {
    // A hexagon with a hole: a shield generator.
    polygon(x, y, 6, 28.0).max(-circle(x, y, 32.0, 32.0, 9.0))
}

fn turret(x: f32, y: f32) -> f32 {
    // A round base with a barrel pointing up.
    let base = circle(x, y, 32.0, 38.0, 20.0);
    let barrel = ((x - 32.0).abs() - 5.0).max((y - 17.0).abs() - 14.0);
    base.min(barrel)
}

fn star(x: f32, y: f32) -> f32 {
    // A small five-pointed badge in the top-right corner, marking the upgraded form.
    let (cx, cy) = (50.0, 14.0);
    let (dx, dy) = (x - cx, y - cy);
    let angle = dy.atan2(dx) + std::f32::consts::FRAC_PI_2;
    let sector = std::f32::consts::TAU / 5.0;
    let a = (angle.rem_euclid(sector) - sector / 2.0).abs();
    let r = (dx * dx + dy * dy).sqrt();
    let radius = 5.5 + 6.5 * (a / (sector / 2.0));
    r - radius
}

fn cross(x: f32, y: f32) -> f32 {
    // The removal mark: an X across the tile.
    let (dx, dy) = (x - 32.0, y - 32.0);
    let d1 = ((dx - dy) / std::f32::consts::SQRT_2).abs() - 4.0;
    let d2 = ((dx + dy) / std::f32::consts::SQRT_2).abs() - 4.0;
    let extent = dx.abs().max(dy.abs()) - 26.0;
    d1.min(d2).max(extent)
}

/// Fill colour inside, outline of `outline` pixels, transparent outside.
fn render(shapes: &[(Shape, [u8; 3])], outline: f32) -> RgbaImage {
    let mut img = RgbaImage::new(SIZE, SIZE);
    const SS: u32 = 4;
    for py in 0..SIZE {
        for px in 0..SIZE {
            let mut acc = [0.0f32; 4];
            for sy in 0..SS {
                for sx in 0..SS {
                    let x = px as f32 + (sx as f32 + 0.5) / SS as f32;
                    let y = py as f32 + (sy as f32 + 0.5) / SS as f32;
                    // Later shapes are drawn on top of earlier ones.
                    let mut colour = [0.0f32; 4];
                    for (shape, fill) in shapes {
                        let d = shape(x, y);
                        if d <= 0.0 {
                            let c = if d > -outline { [20.0, 20.0, 24.0] } else { fill.map(f32::from) };
                            colour = [c[0], c[1], c[2], 255.0];
                        }
                    }
                    for i in 0..4 {
                        acc[i] += colour[i];
                    }
                }
            }
            let n = (SS * SS) as f32;
            let a = acc[3] / n;
            let px_colour = if a > 0.0 {
                // Un-premultiply the colour channels.
                let k = 255.0 / acc[3];
                [(acc[0] * k) as u8, (acc[1] * k) as u8, (acc[2] * k) as u8, a as u8]
            } else {
                [0, 0, 0, 0]
            };
            img.put_pixel(px, py, Rgba(px_colour));
        }
    }
    img
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let Some(out) = std::env::var_os("OUT_DIR") else {
        panic!("OUT_DIR is not set");
    };
    let out = Path::new(&out);
    let light = [235, 235, 235];
    let gold = [255, 200, 40];
    let red = [230, 40, 40];
    let icons: [(&str, Layers); 7] = [
        ("wall.png", vec![(wall as Shape, light)]),
        ("wall_up.png", vec![(wall as Shape, light), (star as Shape, gold)]),
        ("support.png", vec![(support as Shape, light)]),
        ("support_up.png", vec![(support as Shape, light), (star as Shape, gold)]),
        ("turret.png", vec![(turret as Shape, light)]),
        ("turret_up.png", vec![(turret as Shape, light), (star as Shape, gold)]),
        ("remove.png", vec![(cross as Shape, red)]),
    ];
    for (name, shapes) in icons {
        let img = render(&shapes, 3.0);
        if let Err(e) = img.save(out.join(name)) {
            panic!("writing {name}: {e}");
        }
    }
}
