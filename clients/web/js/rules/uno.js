// How to play Uno for two, as this site plays it (docs/games/uno.md).
export default {
  title: "Uno for two",
  html: `
<p>Two players, 7 cards each from a shuffled deck; the next card starts the face-up pile. The
deck is hidden from both players. The first to empty their hand wins.</p>
<h2>A turn</h2>
<ul>
<li>Play a card of the same colour or the same value as the top of the pile, or a wild.
If you can play, you must.</li>
<li>If you cannot, draw one card; that ends your turn.</li>
<li><b>+2 and +4:</b> the other player draws 2 or 4 cards and loses their turn (no stacking).</li>
<li><b>Skip and Reverse:</b> with two players both mean you play again.</li>
<li><b>Wilds</b> name the colour the next card must follow.</li>
<li>When the deck runs out, the pile under its top card is shuffled into a new deck. If nobody
can draw or play, the smaller hand wins.</li>
</ul>
<h2>What the odds show</h2>
<p>For each kind of card, how many your opponent is likely to hold, counted exactly over
every arrangement that fits what you have seen; when a position has too many arrangements to
count, a labelled estimate with its error bars.</p>`,
};
