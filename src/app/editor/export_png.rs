//! Export the board as a PNG image, rendered here with the `image` crate (no GPU, no window).

use crate::app::board::Palette;
use crate::app::board::icons::Icon;
use image::{Rgba, RgbaImage, imageops};
use terminal_core::engine::geometry::{BOARD_SIZE, Tile, all_tiles};
use terminal_core::layout::Layout;
use terminal_core::layout::analysis::{Analysis, PathEnd};

/// Pixels per tile in the exported image.
pub const TILE_PX: u32 = 24;
const MARGIN: u32 = 8;

fn rgba(c: egui::Color32) -> Rgba<u8> {
    Rgba([c.r(), c.g(), c.b(), 255])
}

fn blend(dst: &mut Rgba<u8>, src: [u8; 3], alpha: f32) {
    for (d, s) in dst.0.iter_mut().zip(src) {
        *d = (*d as f32 * (1.0 - alpha) + s as f32 * alpha).round() as u8;
    }
}

fn tile_origin(t: Tile) -> (u32, u32) {
    (MARGIN + t.x as u32 * TILE_PX, MARGIN + (BOARD_SIZE - 1 - t.y) as u32 * TILE_PX)
}

/// What to include in the picture.
#[derive(Clone, Copy, Debug, Default)]
pub struct PngOptions {
    pub dark: bool,
    pub coverage: bool,
    pub paths: bool,
}

/// Renders the layout (and optionally coverage and all edge paths) to an image.
pub fn render(layout: &Layout, analysis: &Analysis, options: PngOptions) -> RgbaImage {
    let palette = Palette::new(options.dark);
    let side = BOARD_SIZE as u32 * TILE_PX + 2 * MARGIN;
    let mut img = RgbaImage::from_pixel(side, side, rgba(palette.background));
    for t in all_tiles() {
        let fill = palette.tile_fill(t);
        let (x0, y0) = tile_origin(t);
        let coverage =
            if options.coverage { analysis.coverage[0][t.index()].max(analysis.coverage[1][t.index()]) } else { 0 };
        for y in 0..TILE_PX {
            for x in 0..TILE_PX {
                let mut px = if x == 0 || y == 0 { rgba(palette.grid) } else { rgba(fill) };
                if coverage > 0 {
                    blend(&mut px, [255, 150, 30], 0.15 + 0.15 * coverage.min(4) as f32);
                }
                img.put_pixel(x0 + x, y0 + y, px);
            }
        }
    }
    draw_structures(&mut img, layout, &palette);
    if options.paths {
        draw_paths(&mut img, analysis, &palette);
    }
    img
}

/// Each structure's icon in its owner's colour, with the removal mark.
fn draw_structures(img: &mut RgbaImage, layout: &Layout, palette: &Palette) {
    let icons: Vec<(Icon, RgbaImage)> = Icon::ALL
        .iter()
        .filter_map(|i| {
            i.decode().map(|img| (*i, imageops::resize(&img, TILE_PX - 2, TILE_PX - 2, imageops::FilterType::Triangle)))
        })
        .collect();
    let icon = |i: Icon| icons.iter().find(|(k, _)| *k == i).map(|(_, img)| img);
    for (t, s) in &layout.structures {
        let tint = palette.player(t.owner_half());
        let (x0, y0) = tile_origin(*t);
        let mut draw = |src: &RgbaImage, tint: Option<egui::Color32>| {
            for (x, y, p) in src.enumerate_pixels() {
                let a = p.0[3] as f32 / 255.0;
                if a <= 0.0 {
                    continue;
                }
                let mut c = [p.0[0], p.0[1], p.0[2]];
                if let Some(t) = tint {
                    c = [
                        (c[0] as u32 * t.r() as u32 / 255) as u8,
                        (c[1] as u32 * t.g() as u32 / 255) as u8,
                        (c[2] as u32 * t.b() as u32 / 255) as u8,
                    ];
                }
                let dst = img.get_pixel_mut(x0 + 1 + x, y0 + 1 + y);
                blend(dst, c, a);
            }
        };
        if let Some(src) = icon(Icon::of(s.kind, s.upgraded)) {
            draw(src, Some(tint));
        }
        if s.remove
            && let Some(src) = icon(Icon::Remove)
        {
            draw(src, None);
        }
    }
}

/// Every edge's path, with a mark where it ends.
fn draw_paths(img: &mut RgbaImage, analysis: &Analysis, palette: &Palette) {
    for p in &analysis.paths {
        let c = palette.player(p.owner);
        let col = [c.r(), c.g(), c.b()];
        for w in p.tiles.windows(2) {
            draw_segment(img, w[0], w[1], col);
        }
        if let Some(end) = p.tiles.last() {
            let (x0, y0) = tile_origin(*end);
            let mark = if p.end == PathEnd::Breach { [255, 235, 80] } else { [255, 60, 60] };
            for d in 6..TILE_PX - 6 {
                img.put_pixel(x0 + d, y0 + d, Rgba([mark[0], mark[1], mark[2], 255]));
                img.put_pixel(x0 + TILE_PX - d, y0 + d, Rgba([mark[0], mark[1], mark[2], 255]));
            }
        }
    }
}

fn draw_segment(img: &mut RgbaImage, a: Tile, b: Tile, col: [u8; 3]) {
    let (ax, ay) = tile_origin(a);
    let (bx, by) = tile_origin(b);
    let h = TILE_PX / 2;
    let (ax, ay, bx, by) = (ax + h, ay + h, bx + h, by + h);
    let (x0, x1) = (ax.min(bx), ax.max(bx));
    let (y0, y1) = (ay.min(by), ay.max(by));
    for x in x0.saturating_sub(1)..=x1 + 1 {
        for y in y0.saturating_sub(1)..=y1 + 1 {
            if x < img.width() && y < img.height() {
                blend(img.get_pixel_mut(x, y), col, 0.8);
            }
        }
    }
}

/// Encodes the image as PNG bytes.
pub fn encode(img: &RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

/// Why the PNG was not written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("encoding: {0}")]
    Encode(#[from] image::ImageError),
    #[error("{0}")]
    Write(#[from] std::io::Error),
}

/// Renders and writes the PNG atomically.
pub fn export(
    path: &std::path::Path,
    layout: &Layout,
    analysis: &Analysis,
    options: PngOptions,
) -> Result<(), ExportError> {
    let bytes = encode(&render(layout, analysis, options))?;
    terminal_core::files::write_atomic(path, &bytes)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use terminal_core::engine::geometry::Player;
    use terminal_core::engine::presets::preset;
    use terminal_core::layout::Kind;

    #[test]
    fn renders_and_encodes() {
        let c = preset("base-s6").expect("preset");
        let mut l = Layout::default();
        l.place(Player::One, Tile::new(13, 5), Kind::Turret);
        let a = Analysis::compute(&l, &c);
        let img = render(&l, &a, PngOptions { dark: true, coverage: true, paths: true });
        assert_eq!(img.width(), 28 * TILE_PX + 16);
        let bytes = encode(&img).expect("encodes");
        assert!(bytes.starts_with(&[0x89, b'P', b'N', b'G']));
        // The turret's tile is no longer plain tile colour.
        let (x, y) = tile_origin(Tile::new(13, 5));
        let plain = render(&Layout::default(), &Analysis::compute(&Layout::default(), &c), PngOptions::default());
        assert_ne!(img.get_pixel(x + 12, y + 12), plain.get_pixel(x + 12, y + 12));
    }
}
