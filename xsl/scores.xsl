<?xml version="1.0" encoding="UTF-8"?>
<!-- Renders the scores XML of `smtcomp score` with format xml (or SITE/<track>/scores.xml)
     as an HTML page with the same per-kind tables as `smtcomp report`. XSLT 1.0:
     xsltproc scores.xml > scores.html, or open the XML in a browser. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="xml" encoding="UTF-8" indent="no" omit-xml-declaration="yes"
              doctype-system="about:legacy-compat"/>

  <xsl:template match="/scores">
    <html lang="en">
      <head>
        <meta charset="utf-8"/>
        <title><xsl:value-of select="@track"/> track scores (<xsl:value-of select="@year"/>)</title>
        <style>
          body{font-family:sans-serif} table{border-collapse:collapse;margin:.5em 0}
          th,td{border:1px solid #ccc;padding:.2em .5em;text-align:right}
          td.name,th.name{text-align:left} tr.noncompeting td{color:#666;font-style:italic}
        </style>
      </head>
      <body>
        <h1><xsl:value-of select="@track"/> track scores (<xsl:value-of select="@year"/>)</h1>
        <p>Time limit: <xsl:value-of select="@timeLimitS"/> s | memory limit:
          <xsl:value-of select="@memoryLimitMB"/> MB | policy: <xsl:value-of select="@policy"/></p>
        <xsl:apply-templates select="group"/>
        <xsl:if test="disagreement">
          <h2>Disagreements</h2>
          <table class="disagreements">
            <thead><tr><th class="name">Division</th><th class="name">Benchmark (removed)</th><th>sat</th><th>unsat</th></tr></thead>
            <tbody>
              <xsl:for-each select="disagreement">
                <tr><td class="name"><xsl:value-of select="@division"/></td><td class="name"><xsl:value-of select="@file"/></td>
                  <td><xsl:value-of select="@sat"/></td><td><xsl:value-of select="@unsat"/></td></tr>
              </xsl:for-each>
            </tbody>
          </table>
        </xsl:if>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="group">
    <h2>
      <xsl:choose><xsl:when test="@page = 'division'">Division </xsl:when><xsl:otherwise>Logic </xsl:otherwise></xsl:choose>
      <xsl:value-of select="@name"/>
      <xsl:if test="@competitive != 'true'"> (non-competitive)</xsl:if>
    </h2>
    <p>Benchmarks: <xsl:value-of select="@benchmarks"/></p>
    <xsl:for-each select="kind">
      <h3><xsl:value-of select="@name"/> (winner: <xsl:value-of select="@winner"/>)</h3>
      <table class="scores" data-page="{../@page}" data-group="{../@identifier}" data-kind="{@name}">
        <thead><tr><th class="name">Rank</th><th class="name">Solver</th><th>Competing</th><th>Errors</th><th>Correct</th><th>Wall (s)</th><th>CPU (s)</th><th>Solved</th><th>Sat</th><th>Unsat</th><th>Unsolved</th><th>Abstained</th><th>Timeout</th><th>Memout</th></tr></thead>
        <tbody>
          <xsl:for-each select="solver">
            <tr>
              <xsl:if test="@competing = 'no'"><xsl:attribute name="class">noncompeting</xsl:attribute></xsl:if>
              <td class="name"><xsl:value-of select="@rank"/></td>
              <td class="name"><xsl:value-of select="@name"/></td>
              <td><xsl:value-of select="@competing"/></td>
              <td><xsl:value-of select="@errorScore"/></td>
              <td><xsl:value-of select="@correctScore"/></td>
              <td><xsl:value-of select="format-number(@wallScore, '0.00')"/></td>
              <td><xsl:value-of select="format-number(@cpuScore, '0.00')"/></td>
              <td><xsl:value-of select="@solved"/></td>
              <td><xsl:value-of select="@solvedSat"/></td>
              <td><xsl:value-of select="@solvedUnsat"/></td>
              <td><xsl:value-of select="@unsolved"/></td>
              <td><xsl:value-of select="@abstained"/></td>
              <td><xsl:value-of select="@timeout"/></td>
              <td><xsl:value-of select="@memout"/></td>
            </tr>
          </xsl:for-each>
        </tbody>
      </table>
    </xsl:for-each>
  </xsl:template>
</xsl:stylesheet>
