use std::time::Duration;
use wuzi::engine::{Engine, Level};
use wuzi::{Limits, Pos, Rule};
fn main() {
    let mut e = Engine::new(15, Rule::Freestyle).unwrap();
    e.set_position(&[Pos::new(8,7), Pos::new(7,7), Pos::NONE, Pos::new(7,10)]).unwrap();
    let lim = Limits { soft_time: Some(Duration::from_millis(4000)), hard_time: Some(Duration::from_millis(9000)), depth: Some(6), ..Default::default() };
    let o = e.think(Level::Full, &lim, &mut |i| println!("{} {} {} {:?}", i.depth, i.score, i.nodes, i.pv));
    println!("{:?}", o);
}
