// How to play dominoes, as this site plays it (docs/games/dominoes-two.md, docs/events.md).
export default {
  title: "Dominoes",
  html: `
<p>A double-six set has 28 tiles, each end showing 0 to 6 pips; a double-nine set has 55.
Every tile is dealt or set aside face down, so nobody sees another player's hand.</p>
<h2>Partnership dominoes (four players)</h2>
<ul>
<li>South and North play against West and East; each player gets 7 tiles.</li>
<li><b>The lead.</b> In the first hand, whoever holds the highest double dealt opens with it
(the site tells you which). In later hands the lead passes to the next seat, who may open
with any tile.</li>
<li><b>A turn.</b> Play a tile whose number matches one open end of the line. If it fits both
ends, choose the end. If nothing fits, pass.</li>
<li><b>End of a hand.</b> The first player to play their last tile wins the hand for their side.
If nobody can play, the hand is blocked and the side with fewer pips left wins it (a tie scores
nothing).</li>
<li><b>Scoring.</b> The winning side scores the pips left in the losers' hands (the table can also
count every hand). The first side to the target, 100 by default, wins the match.</li>
</ul>
<h2>Dominoes for two</h2>
<ul>
<li><b>Block:</b> 7 tiles each; the other 14 sleep face down all hand. Unable to play, you pass.</li>
<li><b>Draw:</b> the other 14 are the boneyard. Unable to play, you draw one tile at a time
until one fits (you then play it) or the boneyard is empty (you then pass).</li>
<li>Leading, ends, blocked hands and scoring are as in the partnership game; each player is
their own side.</li>
</ul>
<h2>What the odds show</h2>
<p>For every tile you cannot see, the chance that each other player holds it (or that it is
asleep or in the boneyard), counted exactly over every deal that fits what you have seen.</p>`,
};
