//! Unit icons: PNGs rendered by `build.rs` into OUT_DIR and embedded in the binary.

use terminal_core::layout::Kind;

/// One embedded icon.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Icon {
    Wall,
    WallUp,
    Support,
    SupportUp,
    Turret,
    TurretUp,
    Remove,
}

impl Icon {
    pub const ALL: [Icon; 7] =
        [Icon::Wall, Icon::WallUp, Icon::Support, Icon::SupportUp, Icon::Turret, Icon::TurretUp, Icon::Remove];

    pub fn of(kind: Kind, upgraded: bool) -> Icon {
        match (kind, upgraded) {
            (Kind::Wall, false) => Icon::Wall,
            (Kind::Wall, true) => Icon::WallUp,
            (Kind::Support, false) => Icon::Support,
            (Kind::Support, true) => Icon::SupportUp,
            (Kind::Turret, false) => Icon::Turret,
            (Kind::Turret, true) => Icon::TurretUp,
        }
    }

    /// The embedded PNG bytes.
    pub fn png(self) -> &'static [u8] {
        match self {
            Icon::Wall => include_bytes!(concat!(env!("OUT_DIR"), "/wall.png")),
            Icon::WallUp => include_bytes!(concat!(env!("OUT_DIR"), "/wall_up.png")),
            Icon::Support => include_bytes!(concat!(env!("OUT_DIR"), "/support.png")),
            Icon::SupportUp => include_bytes!(concat!(env!("OUT_DIR"), "/support_up.png")),
            Icon::Turret => include_bytes!(concat!(env!("OUT_DIR"), "/turret.png")),
            Icon::TurretUp => include_bytes!(concat!(env!("OUT_DIR"), "/turret_up.png")),
            Icon::Remove => include_bytes!(concat!(env!("OUT_DIR"), "/remove.png")),
        }
    }

    /// The decoded RGBA image (None only if the embedded PNG were corrupt).
    pub fn decode(self) -> Option<image::RgbaImage> {
        image::load_from_memory_with_format(self.png(), image::ImageFormat::Png).ok().map(|i| i.to_rgba8())
    }
}

/// The icons uploaded as egui textures (created on first use).
pub struct IconTextures {
    textures: Vec<Option<egui::TextureHandle>>,
}

impl IconTextures {
    pub fn load(ctx: &egui::Context) -> IconTextures {
        let textures = Icon::ALL
            .iter()
            .map(|icon| {
                let img = icon.decode()?;
                let size = [img.width() as usize, img.height() as usize];
                let color = egui::ColorImage::from_rgba_unmultiplied(size, img.as_raw());
                Some(ctx.load_texture(format!("icon-{icon:?}"), color, egui::TextureOptions::LINEAR))
            })
            .collect();
        IconTextures { textures }
    }

    pub fn get(&self, icon: Icon) -> Option<&egui::TextureHandle> {
        let i = Icon::ALL.iter().position(|x| *x == icon)?;
        self.textures.get(i)?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_icon_decodes() {
        for icon in Icon::ALL {
            let img = icon.decode().expect("embedded PNG decodes");
            assert_eq!((img.width(), img.height()), (64, 64));
            // Something is drawn, and the corners are transparent.
            assert!(img.pixels().any(|p| p.0[3] == 255), "{icon:?}");
            assert_eq!(img.get_pixel(0, 63).0[3], 0, "{icon:?}");
        }
    }
}
