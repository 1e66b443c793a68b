// How to play Texas 42, as this site plays it (docs/games/texas42.md).
export default {
  title: "Texas 42",
  html: `
<p>Four players in two teams (South and North against West and East) with a double-six set:
all 28 dominoes are dealt, 7 each. A hand is bid, then played as seven tricks.</p>
<h2>Bidding</h2>
<ul>
<li>Starting left of the dealer, each player bids once or passes. A bid must beat the last:
30 to 41 points, 42 (one mark) or 84 (two marks).</li>
<li>If everyone passes, the next dealer deals again (unless the table makes the dealer bid).</li>
<li>The high bidder names trump: a number from 0 to 6, doubles, or follow-me (no trump).
With the <i>nello</i> option, a bid of 42 or 84 may instead be played as nello.</li>
</ul>
<h2>Tricks</h2>
<ul>
<li>The bidder leads the first trick; whoever wins a trick leads the next.</li>
<li>A domino with the trump number on either end is a trump. Any other domino led calls the
suit of its higher end; a double calls its own number.</li>
<li>You must follow the suit led if you can; otherwise play anything, a trump included.</li>
<li>The highest trump wins the trick, else the highest domino of the suit led. In each suit
the double ranks highest.</li>
</ul>
<h2>Counting</h2>
<ul>
<li>5-5 and 6-4 are worth 10 points; 5-0, 4-1 and 3-2 are worth 5; each trick is worth 1:
42 points in a hand.</li>
<li>The bidders make a bid of 30 to 41 by taking at least that many points; 42 and 84 need
every trick. Made: the bid's marks go to the bidders. Set: they go to the other team.</li>
<li>The first team to 7 marks (a table option) wins the match.</li>
</ul>
<h2>What the odds and the advisor show</h2>
<p>The odds: the chance that each other player holds each domino you cannot see, counted
exactly over every deal that fits what you have seen. At your bid, the advisor deals out the
hidden hands many times and says how often each bid would be made, and with which trump.</p>`,
};
